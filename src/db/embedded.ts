/** Whether this process opened the embedded database (PGlite), for the few reads that it runs differently. */
let embedded = false;

export function noteEmbedded(): void {
  embedded = true;
}

export function isEmbedded(): boolean {
  return embedded;
}
