/**
 * One script for the chat and compare pages: most of each is the same Markdown renderer and code
 * highlighter, so they ship once. The host names the page in `<body data-page>`; only that page's
 * module runs (esbuild keeps a dynamic import's module unevaluated until it is imported).
 */
import './shared/useBundle';

if (document.body.dataset.page === 'compare') void import('./compare/main');
else void import('./chat/main');
