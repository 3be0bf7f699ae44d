import assert from 'node:assert/strict';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { Commands, ContextKeys, LanguageModelVendor, PREFIX, SETTING_DEFAULTS, Views, Walkthrough, WALKTHROUGH_FULL_ID } from '../../src/vscode/contributions';
import { USER_ONLY_SETTINGS } from '../../src/vscode/settingRules';

interface Manifest {
  activationEvents: string[];
  contributes: {
    commands: Array<{ command: string }>;
    views: Record<string, Array<{ id: string }>>;
    viewsContainers: { activitybar: Array<{ id: string }> };
    viewsWelcome: Array<{ view: string; contents: string; when?: string }>;
    menus: Record<string, Array<{ command: string; when?: string }>>;
    languageModelChatProviders: Array<{ vendor: string; displayName: string; managementCommand?: string }>;
    configuration: { properties: Record<string, { default?: unknown; scope?: string; enum?: string[]; enumDescriptions?: string[] }> };
    keybindings: Array<{ command: string; key: string; mac?: string; when?: string }>;
    walkthroughs: Array<{ id: string; title: string; steps: WalkthroughStep[] }>;
  };
}

interface WalkthroughStep {
  id: string;
  title: string;
  description: string;
  media: { image: Record<'light' | 'dark' | 'hc' | 'hcLight', string>; altText: string };
  completionEvents: string[];
}

const raw = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as unknown;
const nls = JSON.parse(readFileSync(new URL('../../package.nls.json', import.meta.url), 'utf8')) as Record<string, string>;

/** What VS Code shows: every "%key%" string replaced by its text in package.nls.json. */
function localize(value: unknown, missing: string[], used: Set<string>): unknown {
  if (typeof value === 'string') {
    const key = /^%([^%\s]+)%$/.exec(value)?.[1];
    if (!key) return value;
    used.add(key);
    if (typeof nls[key] !== 'string') missing.push(key);
    return nls[key] ?? value;
  }
  if (Array.isArray(value)) return value.map((x) => localize(x, missing, used));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, localize(v, missing, used)]));
  return value;
}
const missingKeys: string[] = [];
const usedKeys = new Set<string>();
const manifest = localize(raw, missingKeys, usedKeys) as Manifest;
const c = manifest.contributes;
/** VS Code's own commands the walkthrough's buttons run. */
const WORKBENCH_COMMANDS = new Set(['workbench.action.chat.open', 'workbench.action.chat.openModelPicker', 'debug.addConfiguration', 'workbench.action.debug.start']);
/** What all the walkthrough's pictures together may weigh in the .vsix (issue #28: the package stays under 1.5 MB). */
const WALKTHROUGH_IMAGES_BUDGET = 100 * 1024;

describe('contributions in package.json', () => {
  it('every %key% has its text in package.nls.json, and every text there is used', () => {
    assert.deepEqual(missingKeys, [], 'keys package.json names that package.nls.json lacks');
    assert.deepEqual(Object.keys(nls).filter((k) => !usedKeys.has(k)), [], 'texts in package.nls.json no contribution uses');
  });

  it('shows no English text in a contribution: titles, descriptions and messages are %keys%', () => {
    const english: string[] = [];
    const textProps = new RegExp(
      '^(title|shortTitle|category|name|contextualTitle|contents|label|description|markdownDescription|displayName' +
        '|deprecationMessage|markdownDeprecationMessage|enumDescriptions|altText)$',
    );
    const walk = (value: unknown, prop: string, path: string): void => {
      if (typeof value === 'string') {
        if (textProps.test(prop) && !/^%[^%\s]+%$/.test(value)) english.push(`${path}: ${value.slice(0, 40)}`);
      } else if (Array.isArray(value)) value.forEach((x, i) => walk(x, prop, `${path}[${i}]`));
      else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) walk(v, k, `${path}.${k}`);
    };
    walk((raw as { contributes: unknown }).contributes, '', 'contributes');
    assert.deepEqual(english, []);
  });

  it('declares exactly the commands of the command list', () => {
    assert.deepEqual(c.commands.map((x) => x.command).sort(), Object.values(Commands).sort());
  });

  it('menus and welcome links name only declared commands', () => {
    const known = new Set<string>(Object.values(Commands));
    for (const [menu, items] of Object.entries(c.menus)) for (const i of items) assert.ok(known.has(i.command), `${menu}: ${i.command}`);
    for (const w of c.viewsWelcome) for (const [, id] of w.contents.matchAll(/\(command:([\w.]+)\)/g)) assert.ok(known.has(id), id);
  });

  it('declares every setting with the default the code reads', () => {
    const declared = Object.fromEntries(Object.entries(c.configuration.properties).map(([k, v]) => [k.slice(PREFIX.length + 1), v.default]));
    assert.deepEqual(declared, SETTING_DEFAULTS);
  });

  it('settings that decide where tokens, deliveries or binaries go cannot be set by a workspace', () => {
    const scoped = Object.entries(c.configuration.properties).filter(([, v]) => v.scope === 'application' || v.scope === 'machine');
    assert.deepEqual(scoped.map(([k]) => k.slice(PREFIX.length + 1)).sort(), [...USER_ONLY_SETTINGS].sort());
    for (const key of ['cloud', 'customCloud', 'tunnel.cloudflaredDownloadUrl', 'webhooks.forwardTo'] as const) assert.ok(USER_ONLY_SETTINGS.has(key), key);
  });

  it('says where the tunnel is chosen that localtunnel\'s link to this machine is unencrypted', () => {
    const provider = c.configuration.properties['aoaiWorkbench.tunnel.provider'];
    const described = provider.enumDescriptions![provider.enum!.indexOf('localtunnel')];
    assert.match(described, /plain, unencrypted TCP/);
  });

  it('views, the chat panel and context keys use the ids of the code', () => {
    assert.deepEqual(c.viewsContainers.activitybar.map((x) => x.id), [Views.container]);
    assert.deepEqual(c.views[Views.container].map((v) => v.id), [Views.resources, Views.events]);
    assert.ok(manifest.activationEvents.includes(`onWebviewPanel:${Views.chat}`));
    const whens = [...Object.values(c.menus).flat(), ...c.viewsWelcome].map((x) => x.when ?? '').join(' ');
    const used = new Set([...whens.matchAll(new RegExp(`\\b${PREFIX}\\.\\w+`, 'g'))].map((m) => m[0]));
    const contextKeys = new Set<string>(Object.values(ContextKeys));
    const viewIds = new Set<string>(Object.values(Views));
    for (const key of used) assert.ok(contextKeys.has(key) || viewIds.has(key), key);
  });

  it('declares the language model vendor the code registers, managed through the connection wizard', () => {
    assert.deepEqual(c.languageModelChatProviders, [{ vendor: LanguageModelVendor.vendor, displayName: 'Azure OpenAI', managementCommand: LanguageModelVendor.managementCommand }]);
    assert.ok(Object.values(Commands).includes(LanguageModelVendor.managementCommand));
  });

  it('every id has the one prefix', () => {
    for (const id of [...Object.values(Commands), ...Object.values(Views), ...Object.values(ContextKeys), ...Object.keys(c.configuration.properties)]) {
      assert.ok(id === PREFIX || id.startsWith(`${PREFIX}.`), id);
    }
  });

  it('the Get Started walkthrough has the steps of the code, each with a button, a picture for every theme and an event that completes it', () => {
    const [walk] = c.walkthroughs;
    assert.equal(c.walkthroughs.length, 1);
    assert.equal(walk.id, Walkthrough.id);
    assert.equal(WALKTHROUGH_FULL_ID, `${(manifest as unknown as { publisher: string }).publisher}.${(manifest as unknown as { name: string }).name}#${walk.id}`);
    assert.deepEqual(walk.steps.map((s) => s.id), [...Walkthrough.steps]);
    const commands = new Set<string>(Object.values(Commands));
    const contextKeys = new Set<string>(Object.values(ContextKeys));
    const allowed = readFileSync(new URL('../../.vscodeignore', import.meta.url), 'utf8');
    let bytes = 0;
    for (const step of walk.steps) {
      const text = step.description;
      const links = [...text.matchAll(/\(command:([\w.]+)\)/g)].map((m) => m[1]);
      assert.ok(links.length > 0, `${step.id}: a button to do it`);
      for (const id of links) assert.ok(commands.has(id) || WORKBENCH_COMMANDS.has(id), `${step.id}: ${id}`);
      assert.ok(step.completionEvents.length > 0, step.id);
      for (const e of step.completionEvents) {
        const [, kind, id] = /^(onCommand|onContext|onView):(.+)$/.exec(e) ?? [];
        assert.ok(kind === 'onCommand' ? commands.has(id) : kind === 'onContext' ? contextKeys.has(id) : Object.values(Views).includes(id as never), `${step.id}: ${e}`);
      }
      assert.ok(step.media.altText.length > 20, `${step.id}: alt text`);
      for (const file of new Set(Object.values(step.media.image))) {
        const url = new URL(`../../${file}`, import.meta.url);
        assert.ok(existsSync(url), `${step.id}: ${file}`);
        assert.match(file, /^media\/walkthrough\/[\w-]+\.webp$/, 'shipped by the .vscodeignore pattern');
        bytes += statSync(url).size;
      }
    }
    assert.ok(allowed.includes('!media/walkthrough/*.webp'));
    assert.ok(bytes <= WALKTHROUGH_IMAGES_BUDGET, `the walkthrough's pictures weigh ${bytes} bytes`);
  });

  it('default shortcuts: the last chat, and the selection to it while an editor has one; listed in the walkthrough', () => {
    assert.deepEqual(
      c.keybindings.map((k) => [k.command, k.key, k.mac]),
      [
        [Commands.openLastChat, 'ctrl+shift+alt+a', 'cmd+shift+alt+a'],
        [Commands.askAboutSelection, 'ctrl+shift+alt+s', 'cmd+shift+alt+s'],
      ],
    );
    assert.match(c.keybindings[1].when ?? '', /editorHasSelection/);
    const chatStep = c.walkthroughs[0].steps.find((s) => s.id === 'chat')!.description;
    for (const shown of ['Ctrl+Shift+Alt+A', '⇧⌥⌘A', 'Ctrl+Shift+Alt+S', '⇧⌥⌘S']) assert.ok(chatStep.includes(shown), shown);
  });
});
