/** What the pages' charts draw with: SVG elements, and the legend under a chart (the table beside it is what a screen reader reads). */
import { el } from './page';

const SVG = 'http://www.w3.org/2000/svg';

/** An SVG element with its attributes, an optional class and optional text (as text, never markup). */
export function svg<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | number>,
  className?: string,
  text?: string,
): SVGElementTagNameMap[K] {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (className) e.setAttribute('class', className);
  if (text !== undefined) e.textContent = text;
  return e;
}

/** The legend: one swatch (its classes give the colour) and name per series; hidden from screen readers. */
export function chartLegend(entries: ReadonlyArray<{ swatch: string; name: string }>): HTMLUListElement {
  const legend = el('ul', undefined, 'legend');
  legend.setAttribute('aria-hidden', 'true');
  for (const { swatch, name } of entries) {
    const item = el('li');
    item.append(el('span', undefined, `swatch ${swatch}`), document.createTextNode(name));
    legend.append(item);
  }
  return legend;
}
