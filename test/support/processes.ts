/** Processes as the tests look at them from outside: alive or not, and a process's children (Linux /proc). */
import { readdirSync, readFileSync } from 'node:fs';

export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The children of `parent` whose name (`comm`) or command line passes `wanted`. */
export function childPids(parent: number, wanted: (p: { comm: string; cmdline: string }) => boolean): number[] {
  return readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .filter((d) => {
      try {
        const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
        // "pid (comm) state ppid …": comm may hold spaces and parentheses, so the last ')' ends it.
        const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
        const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        return ppid === parent && wanted({ comm, cmdline: readFileSync(`/proc/${d}/cmdline`, 'utf8') });
      } catch {
        return false;
      }
    })
    .map(Number);
}
