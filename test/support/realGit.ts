import { execFileSync } from 'node:child_process';

/** Whether this machine has git on PATH: the tests that compare with git itself skip without it. */
export const realGit = (() => {
  try {
    execFileSync('git', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
