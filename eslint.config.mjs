// The linter guards what the developers' guide promises: the layers (the core never imports
// `vscode` nor the VS Code layer, the core's floors build on the ones below, the pages are browser
// code sharing only plain modules with the host), no import cycles between files or folders (type
// imports count), files read at once and lines that stay readable.
// test/unit/lint-layers.test.ts breaks each rule on purpose and expects the lint to fail.
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';
import { floorPlanRules } from './eslint/floorPlan.mjs';

const NODE_BUILTINS = ['node:*', 'fs', 'fs/*', 'path', 'os', 'crypto', 'http', 'https', 'net', 'tls', 'dns', 'child_process', 'stream', 'url', 'util', 'zlib', 'events', 'buffer'];

/** Folders that never import `vscode`: plain Node (and the webview, a browser). */
const CORE = ['src/bundles', 'src/storage', 'src/text', 'src/chat', 'src/jobs', 'src/auth', 'src/service', 'src/webhooks', 'src/tunnels', 'src/emulator', 'src/webview', 'src/usage', 'src/trace'];

/**
 * The core's floors, bottom first: a folder imports from its own floor and those below, never from
 * one above (type imports included). Within a floor the cycle rule keeps the folders in one order.
 * The bundles are the lazily loaded entry points of what they bundle, so they sit on top.
 */
const FLOORS = [
  ['src/service', 'src/storage', 'src/text'],
  ['src/auth', 'src/tunnels'],
  ['src/jobs', 'src/usage', 'src/chat'],
  ['src/webhooks', 'src/trace'],
  ['src/emulator', 'src/webview'],
  ['src/bundles'],
];
const FLOOR_PLAN = FLOORS.map((floor) => floor.map((f) => f.slice('src/'.length)).join('/')).join(' → ');

/**
 * The host's modules the pages (src/webview) may use: plain data and functions. They are bundled
 * into the pages, so they too import no Node module and nothing outside this list.
 */
const PAGE_SHARED = [
  'src/chat/model.ts',
  'src/chat/conversation.ts',
  'src/chat/attachments.ts',
  'src/chat/modelProfile.ts',
  'src/chat/naming.ts',
  'src/chat/tokenEstimate.ts',
  'src/webhooks/inspect/inspectorProtocol.ts',
  // The call's From and To as the inspector shows them (a plain parser, no imports).
  'src/webhooks/inspect/sipParty.ts',
  'src/service/types.ts',
  'src/service/shapes.ts',
  // Content filter verdicts in words: the chat page shows them behind a badge (plain, l10n only).
  'src/service/contentFilter.ts',
  // The usage view's tables (the page imports their types only).
  'src/usage/aggregate.ts',
  'src/usage/answered.ts',
  'src/usage/days.ts',
  'src/usage/prices.ts',
  'src/usage/record.ts',
  // The compare view's results and how they are said (types and text only).
  'src/chat/compare/figures.ts',
  // Numbers and times written without ICU (the usage summary sorts with it).
  'src/text/format.ts',
  // A trace's spans as the timeline page shows them (plain data types).
  'src/trace/types.ts',
];

/**
 * The extension host formats and sorts without ICU (src/text/format.ts says why: its first use
 * costs the host about 10 MB); the pages, in a browser, may use it.
 */
const ICU_MESSAGE = 'The extension host formats and sorts without ICU (10 MB of memory on first use): use src/text/format.ts. Pages (src/webview) may use it.';
const noIcu = {
  'no-restricted-properties': [
    'error',
    ...['localeCompare', 'toLocaleString', 'toLocaleDateString', 'toLocaleTimeString', 'toLocaleUpperCase', 'toLocaleLowerCase'].map((property) => ({ property, message: ICU_MESSAGE })),
  ],
  'no-restricted-globals': ['error', { name: 'Intl', message: ICU_MESSAGE }],
};

/** No line past 200 characters, whatever it holds (max-len lets long strings through). */
const local = {
  rules: {
    ...floorPlanRules,
    'hard-line-limit': {
      meta: { type: 'layout', schema: [{ type: 'integer' }] },
      create(context) {
        const limit = context.options[0] ?? 200;
        return {
          Program() {
            context.sourceCode.lines.forEach((line, i) => {
              if (line.length > limit) context.report({ loc: { line: i + 1, column: limit }, message: `Line of ${line.length} characters: wrap it under ${limit}.` });
            });
          },
        };
      },
    },
  },
};

const noVscode = {
  name: 'vscode',
  message: 'The core is plain Node, tested without VS Code: only src/extension.ts and src/vscode/ import vscode.',
};

/**
 * Which layer may import which, by the file an import resolves to (so `../vscode/log`,
 * `../../src/vscode/log` and `./../vscode/log` are all caught). Paths are relative to `root`.
 */
function layerZones() {
  const toVscode = { from: ['src/vscode', 'src/extension.ts'], message: 'The core is plain Node, tested without VS Code: it never imports the VS Code layer.' };
  const pageFrom = PAGE_SHARED.map((f) => `./${f.slice('src/'.length)}`);
  return [
    ...CORE.map((target) => ({ target, ...toVscode })),
    ...FLOORS.slice(0, -1).map((floor, i) => ({
      target: floor,
      from: FLOORS.slice(i + 1).flat(),
      message: `The core's floors, bottom first: ${FLOOR_PLAN}. A floor never imports one above it (type imports too).`,
    })),
    {
      target: ['src/webview', ...PAGE_SHARED],
      from: 'src',
      except: ['./webview', ...pageFrom],
      message: 'The pages run in a browser: they share only the plain modules listed in eslint.config.mjs (PAGE_SHARED) with the host.',
    },
  ];
}

/** The whole configuration, for the project at `root` (the lint probe test lints a copy elsewhere). */
export function lintConfig(root) {
  return tseslint.config(
    { ignores: ['dist/**', 'node_modules/**', '.test-artifacts/**', '.vscode-test/**', '.stryker-tmp/**', '.stryker-tmp-*/**', 'reports/**'] },
    {
      files: ['**/*.ts', '**/*.mjs'],
      languageOptions: { parser: tseslint.parser, ecmaVersion: 2023, sourceType: 'module' },
      plugins: { '@typescript-eslint': tseslint.plugin, local, 'import-x': importX },
      settings: {
        // The import graph (layers, cycles) follows TypeScript files, parsed as the lint parses them.
        'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.mjs', '.js', '.json'] })],
        'import-x/extensions': ['.ts', '.mjs', '.js'],
        'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      },
      linterOptions: { reportUnusedDisableDirectives: 'error' },
      rules: {
        // Code lines up to 160 (a long message or URL may run on), and nothing past 200 at all.
        'local/hard-line-limit': ['error', 200],
        'max-len': ['error', { code: 160, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreUrls: true, ignoreRegExpLiterals: true, ignoreComments: true }],
        '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
        eqeqeq: ['error', 'always', { null: 'ignore' }],
        'no-var': 'error',
        'prefer-const': 'error',
      },
    },
    {
      files: ['src/**/*.ts'],
      rules: {
        'import-x/no-restricted-paths': ['error', { basePath: root, zones: layerZones() }],
        // A cycle makes the load order decide what a module sees, and hides which room owns what;
        // a type-only one too (import-x/no-cycle skips those), between files and between folders.
        'local/no-cycle-with-types': ['error', { root }],
        // A file a reader takes in at once; blank lines and comments count, since they are read too.
        'max-lines': ['error', { max: 300, skipBlankLines: false, skipComments: false }],
      },
    },
    {
      files: ['src/**/*.ts'],
      ignores: ['src/webview/**'],
      rules: noIcu,
    },
    {
      files: CORE.map((d) => `${d}/**/*.ts`),
      rules: { 'no-restricted-imports': ['error', { paths: [noVscode] }] },
    },
    {
      files: ['src/webview/**/*.ts', ...PAGE_SHARED],
      rules: {
        'no-restricted-imports': [
          'error',
          {
            paths: [noVscode],
            patterns: [
              { group: NODE_BUILTINS, message: 'The pages run in a browser (and this module is bundled into them): no Node modules.' },
            ],
          },
        ],
      },
    },
  );
}

export default lintConfig(import.meta.dirname);
