/** Waits out a rate limit with a visible countdown, ending at once when the user stops. */
export function waitWithCountdown(ms: number, signal: AbortSignal, tick?: (s: number) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    let left = Math.ceil(ms / 1000);
    tick?.(left);
    const timer = setInterval(() => {
      left--;
      if (left <= 0) {
        clearInterval(timer);
        signal.removeEventListener('abort', onAbort);
        resolve();
      } else tick?.(left);
    }, 1000);
    const onAbort = () => {
      clearInterval(timer);
      reject(signal.reason);
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
}
