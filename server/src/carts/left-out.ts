/**
 * The campaigns left out of the cart programs because they no longer compile
 * (programs.ts), for the metrics' gauge `tally_campaigns_left_out`. Programs
 * are compiled by the cart threads, each its own: a worker posts one message
 * per compile (never per cart) and the main thread keeps, per Company
 * environment, the count of its latest campaign version. With WORKERS=0 the
 * inline service tells it directly.
 */
import type { OnCompile } from './programs.js';

/** What a worker posts after each compile (pool.ts passes it here). */
export interface LeftOutMessage {
  kind: typeof LEFT_OUT;
  tenant: string;
  version: number;
  count: number;
}

const LEFT_OUT = 'tally: left out';

export function isLeftOutMessage(message: unknown): message is LeftOutMessage {
  return typeof message === 'object' && message !== null && (message as LeftOutMessage).kind === LEFT_OUT;
}

/** An OnCompile posting each compile's count with `post` (a worker's parentPort). */
export function postLeftOut(post: (message: LeftOutMessage) => void): OnCompile {
  return (tenant, version, failures) => post({ kind: LEFT_OUT, tenant, version, count: failures.length });
}

export class LeftOutCampaigns {
  private readonly latest = new Map<string, { version: number; count: number }>();
  private sum = 0;

  /** A program compiled; a thread behind (an older campaign version) changes nothing. */
  readonly compiled: OnCompile = (tenant, version, failures) => this.told({ kind: LEFT_OUT, tenant, version, count: failures.length });

  told({ tenant, version, count }: LeftOutMessage): void {
    const known = this.latest.get(tenant);
    if (known && known.version > version) return;
    this.sum += count - (known?.count ?? 0);
    this.latest.set(tenant, { version, count });
  }

  /** Summed over the Company environments. */
  total(): number {
    return this.sum;
  }
}
