/**
 * One script for the chat, compare, fine-tuning job and trace pages: most of the first two is the same
 * Markdown renderer and code highlighter, so they ship once, and a page of its own would be one
 * more file in the package. The host names the page in `<body data-page>`; only that page's
 * module runs (esbuild keeps a dynamic import's module unevaluated until it is imported).
 */
import './shared/useBundle';

const page = document.body.dataset.page;
if (page === 'compare') void import('./compare/main');
else if (page === 'fineTuning') void import('./fineTuning/main');
else if (page === 'trace') void import('./trace/main');
else void import('./chat/main');
