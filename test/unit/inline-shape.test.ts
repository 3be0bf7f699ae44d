import assert from 'node:assert/strict';
import { buildInlinePrompt, lineMode } from '../../src/chat/inline/prompt';
import { bracketDepth, indentUnit, shapeSuggestion, unfence } from '../../src/chat/inline/shape';

/** The suggestion for a file written with `|` at the cursor, as the prompt builder decides its mode. */
function shape(fileWithCursor: string, answer: string): string {
  const [prefix, suffix] = fileWithCursor.split('|');
  return shapeSuggestion(answer, { prefix, suffix, mode: lineMode(prefix, suffix) });
}

describe('inline suggestions: the answer continues the code', () => {
  it('is one line when the cursor is mid-line or the line is under way, several on an empty line or after a block opener', () => {
    assert.equal(lineMode('const x = ', ';\n'), 'single');
    assert.equal(lineMode('foo(', 'bar);'), 'single');
    assert.equal(lineMode('const total = ', ''), 'single');
    assert.equal(lineMode('function f() {\n  ', '\n}'), 'multi');
    assert.equal(lineMode('function f() {', '}'), 'multi');
    assert.equal(lineMode('def f(a):', ''), 'multi');
    assert.equal(lineMode('items.map((x) => ', ')'), 'multi');
  });

  it('takes the code out of fences, with or without a language, closed or left open', () => {
    assert.equal(unfence('```typescript\nreturn a + b;\n```'), 'return a + b;');
    assert.equal(unfence('Here you go:\n```\nreturn a + b;\n```\nThis adds them.'), 'return a + b;');
    assert.equal(unfence('```ts\nreturn a + b;'), 'return a + b;');
    assert.equal(unfence('return a + b;'), 'return a + b;');
    assert.equal(shape('const sum = |;', '```ts\na + b\n```'), 'a + b');
  });

  it('drops the line before the cursor that the model repeats', () => {
    assert.equal(shape('  const total = |\n', 'const total = items.length;'), 'items.length;');
    assert.equal(shape('if (ready) {\n  start(|\n}', 'start(engine);'), 'engine);');
    // A lone bracket is not a repetition worth dropping.
    assert.equal(shape('x = (|', '(a)'), '(a)');
  });

  it('trims what it repeats of the text after the cursor, where that keeps the brackets balanced', () => {
    assert.equal(shape('console.log(|);', 'message);'), 'message');
    assert.equal(shape('const x = compute(|)', 'a, b)'), 'a, b');
    assert.equal(shape('items.push(|)', 'make(id))'), 'make(id)');
    // Kept: without its `)` the line would be short of one.
    assert.equal(shape('wrap(|)', 'inner(x)'), 'inner(x)');
    assert.equal(shape('function add(a: number, b: number): number {\n  |\n}\n', '  return a + b;\n}'), 'return a + b;');
  });

  it('keeps a mid-line suggestion on its line', () => {
    assert.equal(shape('const name = |;\nnext();', '"value";\nconst other = 1;'), '"value"');
    assert.equal(shape('let x = |', '\n\n42'), '');
  });

  it('indents a block as the file is: under the cursor on an empty line, one step in after an opener, tabs in a tabbed file', () => {
    assert.equal(shape('function f(a) {\n    |\n}', 'if (a) {\n    return 1;\n}\nreturn 0;'), 'if (a) {\n        return 1;\n    }\n    return 0;');
    assert.equal(shape('function f(a) {|}', '\n  return a;'), '\n  return a;');
    assert.equal(shape('class A {\n    m() {|}\n}', 'return 1;'), '\n        return 1;');
    assert.equal(shape('def f(a):\n\tif a:\n\t\tpass\n\t|', 'if not a:\n    return 0'), 'if not a:\n\t\treturn 0');
    assert.equal(indentUnit('a {\n    b {\n        c\n'), '    ');
    assert.equal(indentUnit('a {\n\tb\n'), '\t');
  });

  it('counts brackets outside strings', () => {
    assert.equal(bracketDepth('f(a, "(")'), 0);
    assert.equal(bracketDepth('f(a, [1'), 2);
  });

  it('is empty when the model answers only whitespace, a fence or the marker', () => {
    assert.equal(shape('x = |', '   '), '');
    assert.equal(shape('function f() {\n  |\n}', '```\n```'), '');
    assert.equal(shape('x = |', '<cursor/>'), '');
  });
});

describe('inline suggestions: the prompt', () => {
  it('sends the code around the cursor, its language and path, the instruction, and open tabs within the budget', () => {
    const p = buildInlinePrompt({
      prefix: 'import { add } from "./math";\nconst x = ',
      suffix: ';\n',
      languageId: 'typescript',
      path: 'src/app.ts',
      tabs: [
        { path: 'src/math.ts', text: 'export function add(a: number, b: number) {\n  return a + b;\n}\n' },
        { path: 'src/app.ts', text: 'the current file is not sent twice' },
        { path: 'big.ts', text: 'x'.repeat(10_000) },
      ],
    });
    const [system, user] = p.messages.map((m) => (m.parts[0] as { text: string }).text);
    assert.match(system, /only|nothing else/);
    assert.match(system, /no code fences/);
    assert.match(user, /<file path="src\/math.ts">\nexport function add/);
    assert.ok(!user.includes('the current file is not sent twice'));
    assert.ok(!user.includes('xxxxxxxxxx'), 'a line over the budget is left out');
    assert.match(user, /<file path="src\/app.ts" language="typescript">\nimport \{ add \} from "\.\/math";\nconst x = <cursor\/>;\n\n<\/file>/);
    assert.equal(p.mode, 'single');
    assert.equal(p.maxTokens, 64);
  });

  it('keeps the end of a long prefix and the start of a long suffix, cut at line ends', () => {
    const lines = Array.from({ length: 2000 }, (_, i) => `line ${i}`).join('\n');
    const p = buildInlinePrompt({ prefix: lines + '\n', suffix: '\n' + lines, languageId: 'plaintext', path: 'a.txt' });
    assert.ok(p.prefix.length <= 6000 && p.prefix.startsWith('line ') && p.prefix.endsWith('line 1999\n'));
    assert.ok(p.suffix.length <= 2000 && p.suffix.startsWith('\nline 0\n') && /line \d+$/.test(p.suffix));
  });
});
