import type { ClaimedDelivery } from "./deliveries-repository.js";

interface Held {
  delivery: ClaimedDelivery;
  claimedAt: number;
}

/**
 * Deliveries a worker leased ahead of its free slots (one claim statement serves several slots),
 * kept per worker id because only the lease holder may record an attempt.
 */
export class ClaimBuffer {
  private readonly held = new Map<string, Held[]>();

  constructor(private readonly leaseMs: number) {}

  size(workerId: string): number {
    return this.held.get(workerId)?.length ?? 0;
  }

  add(workerId: string, deliveries: readonly ClaimedDelivery[], now: Date): void {
    const list = this.held.get(workerId) ?? [];
    for (const delivery of deliveries) list.push({ delivery, claimedAt: now.getTime() });
    this.held.set(workerId, list);
  }

  take(workerId: string, limit: number): ClaimedDelivery[] {
    return (this.held.get(workerId) ?? []).splice(0, limit).map((h) => h.delivery);
  }

  /** Held past half the lease: handed back rather than started on a lease about to expire. */
  takeStale(workerId: string, now: Date): ClaimedDelivery[] {
    const list = this.held.get(workerId) ?? [];
    const fresh = list.filter((h) => now.getTime() - h.claimedAt <= this.leaseMs / 2);
    this.held.set(workerId, fresh);
    return list.filter((h) => !fresh.includes(h)).map((h) => h.delivery);
  }

  takeAll(workerId: string): ClaimedDelivery[] {
    const list = this.held.get(workerId) ?? [];
    this.held.delete(workerId);
    return list.map((h) => h.delivery);
  }
}
