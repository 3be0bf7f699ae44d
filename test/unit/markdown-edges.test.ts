/** The chat page's Markdown at its edges: Markdown's own rules kept, fences found only where they are. */
import assert from 'node:assert/strict';
import { createRenderer, endsInOpenFence, stableBoundary } from '../../src/webview/chat/markdown';

const render = (text: string) => createRenderer().render(text);

describe('Markdown rules the chat keeps', () => {
  it('links a bare address, keeps a single line break soft and leaves quotes and dashes as typed', () => {
    assert.match(render('see https://learn.microsoft.com/azure for more'), /<a href="https:\/\/learn\.microsoft\.com\/azure"/);
    const html = render('line one\nline two "quoted" -- (c)');
    assert.doesNotMatch(html, /<br/);
    assert.match(html, /line one\nline two &quot;quoted&quot; -- \(c\)/);
  });

  it('highlights a block even where the language would not allow a token (a reply is often a fragment)', () => {
    const html = render('```python\nx = 1 => 2\n```');
    assert.match(html, /<span class="hljs-number">1<\/span>/);
    assert.match(html, /=&gt; <span class="hljs-number">2<\/span>/);
  });

  it('labels a block by the first word of its info string and shows Copy and Insert with their icons', () => {
    const html = render('```  Python title="demo"\nprint(1)\n```');
    assert.match(html, /<span class="code-lang">python<\/span>/);
    assert.match(html, /class="hljs language-python"/);
    assert.match(html, /<span class="codicon codicon-copy" aria-hidden="true"><\/span><span>Copy<\/span><\/button>/);
    assert.match(html, /<span class="codicon codicon-insert" aria-hidden="true"><\/span><span>Insert<\/span><\/button>/);
  });
});

describe('where a streaming reply can be cut', () => {
  const cut = (text: string) => text.slice(0, stableBoundary(text));

  it('takes three backticks or tildes at a line start (up to three spaces in) as a fence, nothing else', () => {
    assert.equal(cut('Use ``` to start a fence.\n\nNext\n'), 'Use ``` to start a fence.\n\n');
    assert.equal(cut('~5 ms faster\n\nNext\n'), '~5 ms faster\n\n');
    assert.equal(cut('   ~~~\ncode\n\nmore code\n'), '');
  });

  it('closes a fence only with a line of the same marker, at least as long, with nothing after it but spaces', () => {
    const nested = '```\n```js\n\nstill code\n```\n\nafter\n';
    assert.equal(cut(nested), '```\n```js\n\nstill code\n```\n\n');
    assert.equal(cut('````\n```\n\ncode\n````  \n\nafter\n'), '````\n```\n\ncode\n````  \n\n');
    assert.equal(cut('~~~\n```\n\ncode\n~~~\n\nafter\n'), '~~~\n```\n\ncode\n~~~\n\n');
  });

  it('counts a line of spaces as blank', () => {
    assert.equal(cut('para\n   \nnext\n'), 'para\n   \n');
  });

  it('knows a reply ends inside a fence only from fence lines', () => {
    assert.equal(endsInOpenFence('```js\nconst a = 1;'), true);
    assert.equal(endsInOpenFence('  ~~~\ncode'), true);
    assert.equal(endsInOpenFence('```js\nx\n```'), false);
    assert.equal(endsInOpenFence('plain text'), false);
    assert.equal(endsInOpenFence('Use ``` to start a fence.'), false);
    assert.equal(endsInOpenFence('~5 ms'), false);
    assert.equal(endsInOpenFence('`code` here'), false);
    assert.equal(endsInOpenFence('x```'), false);
    assert.equal(endsInOpenFence('a\n ```\nb'), true);
  });
});
