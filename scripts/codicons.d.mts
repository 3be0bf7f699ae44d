/** Types of scripts/codicons.mjs, for the test that checks the subset. */
export function pageSources(root: string): string[];
export function codiconRules(root: string): Map<string, number>;
export function usedCodicons(root: string): { names: string[]; codePoints: number[] };
export function subsetCodicons(root: string): Promise<{ css: string; ttf: Uint8Array; names: string[]; codePoints: number[] }>;
