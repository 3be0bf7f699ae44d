/** The chat page's Markdown renderer, run in Node: model output is untrusted. */
import assert from 'node:assert/strict';
import { createRenderer, endsInOpenFence, escapeHtml, stableBoundary } from '../../src/webview/chat/markdown';

const render = (text: string) => createRenderer().render(text);
/** Every href the HTML would make clickable. */
const hrefs = (html: string) => [...html.matchAll(/href="([^"]*)"/g)].map((m) => m[1]);

describe('chat Markdown renderer', () => {
  it('makes http(s) and mailto links clickable, and nothing else', () => {
    const html = render(
      [
        '[docs](https://learn.microsoft.com/azure) [plain](http://127.0.0.1:8080/x) [mail](mailto:dev@example.com)',
        '[run](command:workbench.action.terminal.sendSequence?%7B%22text%22%3A%22rm%22%7D)',
        '[js](javascript:alert(1)) [vb](vbscript:msgbox) [file](file:///etc/passwd) [vsc](vscode://ms-vscode.x/y)',
        '[data](data:text/html;base64,PHNjcmlwdD4=) [rel](./relative) <command:open>',
      ].join('\n\n'),
    );
    assert.deepEqual(hrefs(html), ['https://learn.microsoft.com/azure', 'http://127.0.0.1:8080/x', 'mailto:dev@example.com']);
    // The refused links stay visible as text, not as links.
    assert.match(html, /\[run\]\(command:workbench/);
    assert.match(html, /\[js\]\(javascript:alert\(1\)\)/);
  });

  it('shows images as links (no remote loads), and unsafe image sources as text only', () => {
    const html = render('![chart](https://example.com/c.png) ![x](javascript:alert(1)) ![y](command:foo)');
    assert.doesNotMatch(html, /<img/);
    assert.deepEqual(hrefs(html), ['https://example.com/c.png']);
    assert.match(html, /!\[x\]\(javascript:alert\(1\)\)/);
  });

  it('escapes raw HTML and code, so markup in a reply stays text', () => {
    const html = render('<img src=x onerror=alert(1)> <script>alert(2)</script>\n\n```html\n<b onclick="x()">hi</b>\n```');
    assert.doesNotMatch(html, /<img|<script|<b /);
    assert.match(html, /&lt;img src=x onerror=alert\(1\)&gt;/);
    assert.match(html, /data-action="copy"/);
  });
});

describe('code blocks', () => {
  it('highlights by language or alias, labels the block, and offers Copy and Insert named for it', () => {
    const html = render('```ts\nconst a: number = 1;\n```');
    assert.match(html, /<code class="hljs language-typescript">/);
    assert.match(html, /<span class="hljs-keyword">const<\/span>/);
    assert.match(html, /<span class="code-lang">ts<\/span>/);
    assert.match(html, /aria-label="Copy ts code"/);
    assert.match(html, /aria-label="Insert ts code at the cursor"/);
    for (const [alias, lang] of [['py', 'python'], ['sh', 'bash'], ['yml', 'yaml'], ['c#', 'csharp'], ['PS1', 'powershell']]) {
      assert.match(render(`\`\`\`${alias} extra words\nx\n\`\`\``), new RegExp(`language-${lang}"`), alias);
    }
  });

  it('leaves code plain (escaped) while it streams, in an unknown language, or without one', () => {
    const renderer = createRenderer();
    const streaming = renderer.render('```js\nif (a < b) {}\n```', { highlight: false });
    assert.doesNotMatch(streaming, /hljs-keyword/);
    assert.match(streaming, /if \(a &lt; b\) \{\}/);
    assert.match(renderer.render('```js\nif (a) {}\n```'), /hljs-keyword/, 'highlighting is back for the final render');
    const unknown = render('```klingon\n<b>&</b>\n```');
    assert.match(unknown, /<code class="hljs language-klingon">&lt;b&gt;&amp;&lt;\/b&gt;/);
    const none = render('```\nplain\n```');
    assert.match(none, /<span class="code-lang">text<\/span>/);
    assert.match(none, /<code class="hljs">plain/);
  });

  it('escapes a hostile language label', () => {
    const html = render('```"><img src=x onerror=alert(1)>\nx\n```');
    assert.doesNotMatch(html, /<img/);
    assert.match(html, /&quot;&gt;&lt;img/);
  });
});

describe('links and images', () => {
  it('shows where a link goes (title = href) and escapes image alt text', () => {
    assert.match(render('[docs](https://example.com/a)'), /<a href="https:\/\/example\.com\/a" title="https:\/\/example\.com\/a">docs<\/a>/);
    assert.match(render('![<b>"x"</b>](https://example.com/i.png)'), /\[image: &lt;b&gt;&quot;x&quot;&lt;\/b&gt;\]/);
    assert.match(render('![](https://example.com/i.png)'), /\[image: https:\/\/example\.com\/i\.png\]/, 'no alt: the address');
  });

  it('escapes the five HTML-special characters', () => {
    assert.equal(escapeHtml(`<a href="x" title='y'>&</a>`), '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;');
  });
});

describe('streaming boundary', () => {
  it('never cuts inside an open code fence, even at a blank line within it', () => {
    assert.equal(stableBoundary('```python\ndef f():\n\n    return 1\n'), 0);
    assert.equal(stableBoundary('Intro\n\n```\na\n\nb\n'), 'Intro\n\n'.length);
    assert.equal(stableBoundary('~~~\na\n\n```\n\nb\n'), 0, 'a ``` line does not close a ~~~ fence');
    assert.equal(stableBoundary('````\na\n```\n\nb\n'), 0, 'a shorter fence does not close a longer one');
    assert.equal(stableBoundary('```\na\n\n```\n\nafter\n'), '```\na\n\n```\n\n'.length, 'the blank line after a closed fence is a boundary');
  });

  it('cuts only where the text before renders the same as in the whole reply', () => {
    const reply = [
      '# Plan',
      '',
      'First a paragraph',
      'over two lines.',
      '',
      '```ts',
      'const a = 1;',
      '',
      'const b = 2;',
      '```',
      '',
      '~~~',
      'tilde block',
      '',
      '~~~',
      '',
      '````md',
      '```',
      '',
      'inner',
      '```',
      '````',
      '',
      'The end.',
      '',
    ].join('\n');
    const whole = render(reply);
    let cuts = 0;
    for (let n = 1; n <= reply.length; n++) {
      const b = stableBoundary(reply.slice(0, n));
      assert.ok(b <= n);
      if (b === 0) continue;
      cuts++;
      assert.equal(render(reply.slice(0, b)) + render(reply.slice(b)), whole, `cut at ${b} (after ${n} characters)`);
    }
    assert.ok(cuts > 0, 'some prefixes can be cut');
  });

  it('continues from an earlier boundary', () => {
    const text = 'a\n\nb\n\n```\nc\n\n';
    const first = stableBoundary(text);
    assert.equal(first, 'a\n\nb\n\n'.length);
    assert.equal(stableBoundary(text, first), first);
  });

  it('knows when the text ends inside a fence', () => {
    assert.equal(endsInOpenFence('x\n```js\nlet a'), true);
    assert.equal(endsInOpenFence('```js\nlet a\n```\n'), false);
  });
});
