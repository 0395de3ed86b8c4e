/**
 * CPU time of a process and its descendants, from Linux's /proc, for a benchmark's "CPU per
 * accepted request" of the server it started and of a local Postgres. On this project's 2-core
 * machines the server, Postgres and the load generator share the cores, so throughput moves
 * with whatever else runs; CPU per request is what a change can be judged on.
 *
 * A process's `cutime`/`cstime` hold the CPU of the children it has reaped, so the postmaster's
 * figure keeps the backends of connections already closed; live descendants are added.
 * Elsewhere than Linux (no /proc) the readers answer null.
 */
import { readdirSync, readFileSync } from 'node:fs';
import type { Db } from '../db/create-db.js';
import { sql } from 'kysely';

/** Linux's USER_HZ: /proc counts CPU time in hundredths of a second on every common build. */
const TICKS_PER_SECOND = 100;

interface Stat {
  parent: number;
  /** Own CPU and that of reaped children, in ticks. */
  ticks: number;
}

function stat(pid: number): Stat | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // After the command name (in parentheses, which may itself hold spaces or parentheses).
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    const tick = (index: number) => Number(fields[index]);
    // fields[0] is field 3 (state) of proc(5): ppid is 4, utime…cstime are 14…17.
    return { parent: tick(1), ticks: tick(11) + tick(12) + tick(13) + tick(14) };
  } catch {
    return null;
  }
}

/** CPU seconds used so far by `pid` and every process under it; null when it cannot be read. */
export function treeCpuSeconds(pid: number): number | null {
  const root = stat(pid);
  if (!root) return null;
  const children = new Map<number, number[]>();
  const ticks = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    const other = Number(entry);
    if (!Number.isInteger(other) || other === pid) continue;
    const found = stat(other);
    if (!found) continue;
    ticks.set(other, found.ticks);
    children.set(found.parent, [...(children.get(found.parent) ?? []), other]);
  }
  let total = root.ticks;
  const pending = [...(children.get(pid) ?? [])];
  while (pending.length > 0) {
    const next = pending.pop()!;
    total += ticks.get(next) ?? 0;
    pending.push(...(children.get(next) ?? []));
  }
  return total / TICKS_PER_SECOND;
}

/** The postmaster of a Postgres on this machine (the parent of this connection's backend), or null. */
export async function localPostmaster(db: Db): Promise<number | null> {
  try {
    const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(db);
    const backend = rows[0] ? stat(Number(rows[0].pid)) : null;
    return backend ? backend.parent : null;
  } catch {
    return null;
  }
}

/** Starts counting the CPU of the given processes' trees; `stop` answers µs per request for each. */
export function cpuMeter(pids: Record<string, number | null | undefined>): { stop(requests: number): string } {
  const start = Object.entries(pids).map(([name, pid]) => ({ name, pid, seconds: pid ? treeCpuSeconds(pid) : null }));
  return {
    stop(requests) {
      const parts = start
        .map(({ name, pid, seconds }) => {
          const now = pid ? treeCpuSeconds(pid) : null;
          return now === null || seconds === null || requests === 0 ? null : `${name} ${(((now - seconds) * 1e6) / requests).toFixed(0)}`;
        })
        .filter(Boolean);
      return parts.length ? `CPU µs per accepted: ${parts.join(', ')}` : '';
    },
  };
}
