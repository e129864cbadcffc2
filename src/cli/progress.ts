/**
 * Shows that a long owner command is working, on a terminal only (scripts and pipes get the result
 * alone): the label at once, then the elapsed seconds, erased when the work ends. The work may run
 * in this process or in the server behind the owner socket, so progress is told by time, not steps.
 */
export async function withProgress<T>(label: string, work: () => Promise<T>): Promise<T> {
  const out = process.stderr;
  if (!out.isTTY) return work();
  const started = Date.now();
  const draw = () => out.write(`\r${label}… ${Math.floor((Date.now() - started) / 1000)} s`);
  draw();
  const timer = setInterval(draw, 1000);
  try {
    return await work();
  } finally {
    clearInterval(timer);
    out.write("\r\x1b[2K");
  }
}
