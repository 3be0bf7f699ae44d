// Resolve hook: Stryker's own modules get TypeScript 5.9 for `typescript` (see typescript5.mjs).
export async function resolve(specifier, context, next) {
  if (specifier === 'typescript' && context.parentURL?.includes('/node_modules/@stryker-mutator/')) return next('typescript5', context);
  return next(specifier, context);
}
