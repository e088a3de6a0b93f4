import type { FastifyBaseLogger } from 'fastify';
import type { Executor } from '../services/db';
import { type Job, claim, complete, extendLease, fail, workerName } from './queue';

export type JobHandler = (job: Job) => Promise<void>;

export interface WorkerOptions {
  db: Executor;
  log: FastifyBaseLogger;
  handlers: Record<string, JobHandler>;
  /** How long a claim holds without renewal; renewed every third of it while the job runs. */
  leaseMs?: number;
  /** The pause between polls when no job is due. */
  idleMs?: number;
}

/**
 * Runs queued jobs one at a time in this process. Any number of processes may run a worker on the same database:
 * claims skip each other's rows, and a job whose process died is taken over once its lease expires. A handler
 * must be safe to run again after a crash (its effects committed together, or keyed so a repeat is a no-op).
 */
export class JobWorker {
  readonly name = workerName();
  private stopped = false;
  private loop: Promise<void> | undefined;
  private wake: (() => void) | undefined;

  constructor(private readonly options: WorkerOptions) {}

  start(): void {
    this.loop ??= this.run();
  }

  /** Asks the worker to look for due jobs now (after queueing one) rather than at its next poll. */
  poke(): void {
    this.wake?.();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wake?.();
    await this.loop;
  }

  /** Claims and runs due jobs until none is left; answers how many ran. */
  async drain(): Promise<number> {
    let count = 0;
    while (!this.stopped && (await this.runOne())) count += 1;
    return count;
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      try {
        await this.drain();
      } catch (error) {
        this.options.log.warn({ err: error }, 'job queue unavailable');
      }
      if (this.stopped) break;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.options.idleMs ?? 5_000);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  }

  private async runOne(): Promise<boolean> {
    const { db, handlers, log } = this.options;
    const leaseMs = this.options.leaseMs ?? 60_000;
    const job = await claim(db, this.name, Object.keys(handlers), leaseMs);
    if (!job) return false;
    const renew = setInterval(() => {
      extendLease(db, job, this.name, leaseMs).catch(() => {});
    }, leaseMs / 3);
    try {
      await handlers[job.kind](job);
      await complete(db, job, this.name);
    } catch (error) {
      log.warn({ job: { id: job.id, kind: job.kind, attempt: job.attempts }, err: error }, 'job failed');
      await fail(db, job, this.name, error);
    } finally {
      clearInterval(renew);
    }
    return true;
  }
}
