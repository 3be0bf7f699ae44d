/**
 * Arguments our own notifications, pages and pickers pass: marked here, where no link, task or
 * other extension can reach, so a command run with them asks nothing more (see askFirst.ts).
 * Apart from commands/args.ts so that panels and notifications mark their arguments without
 * importing the commands that read them.
 */
const OWNED = new WeakSet<object>();

export function owned<T extends object>(args: T): T {
  OWNED.add(args);
  return args;
}

export const isMarkedOwned = (arg: unknown): boolean => !!arg && typeof arg === 'object' && OWNED.has(arg);
