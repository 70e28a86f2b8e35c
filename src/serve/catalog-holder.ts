import type { Catalog } from '../catalog/catalog.js';

/** A snapshot in service and the requests still using it. */
export interface Lease {
  readonly catalog: Catalog;
  /** When it came into service (ms since the epoch). */
  readonly since: number;
  inFlight: number;
  retired: boolean;
}

/**
 * Holds the catalog new requests get, and lets a new one replace it without dropping a request:
 * each request leases the catalog in service when it starts and releases it when its response
 * is done; a replaced catalog is closed once its last lease is released.
 */
export class CatalogHolder {
  private lease: Lease;
  swaps = 0;

  constructor(catalog: Catalog) {
    this.lease = { catalog, since: Date.now(), inFlight: 0, retired: false };
  }

  get current(): Catalog {
    return this.lease.catalog;
  }

  get currentLease(): Readonly<Lease> {
    return this.lease;
  }

  acquire(): Lease {
    const lease = this.lease;
    lease.inFlight++;
    return lease;
  }

  release(lease: Lease): void {
    lease.inFlight--;
    if (lease.retired && lease.inFlight === 0) lease.catalog.close();
  }

  /** Puts `next` in service; the old catalog closes when its in-flight requests are done. Returns the old one. */
  swap(next: Catalog): Catalog {
    const old = this.lease;
    this.lease = { catalog: next, since: Date.now(), inFlight: 0, retired: false };
    this.swaps++;
    old.retired = true;
    if (old.inFlight === 0) old.catalog.close();
    return old.catalog;
  }

  /** Closes the catalog in service (at shutdown, after the last request). */
  close(): void {
    this.lease.retired = true;
    if (this.lease.inFlight === 0) this.lease.catalog.close();
  }
}
