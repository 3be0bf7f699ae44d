/**
 * The page's strings: every page entry imports this module first, so each `l10n.t` call of the page
 * (module constants included) reads the bundle the extension put in the HTML; none means English.
 */
import * as l10n from '@vscode/l10n';
import { BUNDLE_ELEMENT_ID, parseBundle } from './l10nBundle';

l10n.config({ contents: parseBundle(document.getElementById(BUNDLE_ELEMENT_ID)?.textContent) ?? {} });
