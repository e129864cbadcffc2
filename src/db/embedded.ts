/**
 * Whether this process opened the embedded database (PGlite), for the few reads that it runs
 * differently. A process serves one database; a test process that opens an embedded one is marked too.
 */
let embedded = false;

export function noteEmbedded(): void {
  embedded = true;
}

export function isEmbedded(): boolean {
  return embedded;
}
