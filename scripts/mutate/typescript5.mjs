// Stryker (its tsconfig preprocessor and TypeScript checker) needs the compiler's JavaScript API,
// which TypeScript 7 (native) no longer ships. Loaded with --import into Stryker's processes, this
// hands Stryker's own modules TypeScript 5.9 (the `typescript5` devDependency); the project
// itself type-checks with TypeScript 7.
import { register } from 'node:module';

register('./typescript5-resolve.mjs', import.meta.url);
