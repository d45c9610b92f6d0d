/**
 * CPU time spent by a process tree, read from /proc (Linux): the server's own Node.js
 * processes apart from DynamoDB Local's Java, which shares the machine but says little about
 * what the function would spend in AWS. Used as before/after readings around a load round.
 */
import { readdirSync, readFileSync } from 'node:fs';
import type { LoadResult } from './load';

const ticksPerSecond = 100; // USER_HZ on Linux

interface ProcessEntry {
  readonly pid: number;
  readonly parent: number;
  readonly command: string;
  /** utime + stime, in clock ticks. */
  readonly ticks: number;
}

function processes(): ProcessEntry[] {
  const entries: ProcessEntry[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // The command may contain spaces and parentheses: the fields follow the last ')'.
      const command = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      entries.push({ pid: Number(name), parent: Number(fields[1]), command, ticks: Number(fields[11]) + Number(fields[12]) });
    } catch {
      // the process ended while the table was read
    }
  }
  return entries;
}

export interface TreeCpu {
  /** Seconds of CPU of the Node.js processes of the tree. */
  readonly node: number;
  /** Seconds of CPU of everything else in it (DynamoDB Local's Java). */
  readonly other: number;
}

/** CPU seconds used so far by `root` and its descendants, split into Node.js and the rest. */
export function treeCpu(root: number): TreeCpu {
  const all = processes();
  const inTree = new Set([root]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const p of all) {
      if (!inTree.has(p.pid) && inTree.has(p.parent)) {
        inTree.add(p.pid);
        grew = true;
      }
    }
  }
  let node = 0;
  let other = 0;
  for (const p of all) {
    if (!inTree.has(p.pid)) continue;
    if (p.command.startsWith('node') || p.command === 'tsx' || p.command.startsWith('MainThread')) node += p.ticks;
    else other += p.ticks;
  }
  return { node: node / ticksPerSecond, other: other / ticksPerSecond };
}

export interface MeasuredRound {
  readonly load: LoadResult;
  /** Milliseconds of CPU of the server's Node.js processes per request. */
  readonly cpuMsPerRequest: number;
  /** The same for the rest of its process tree (DynamoDB Local). */
  readonly otherCpuMsPerRequest: number;
}

/** Runs one load round against the server whose process is `pid`, reading its CPU before and after. */
export async function measured(pid: number, run: () => Promise<LoadResult>): Promise<MeasuredRound> {
  const before = treeCpu(pid);
  const load = await run();
  const after = treeCpu(pid);
  const per = (s: number) => (s * 1000) / Math.max(1, load.requests);
  return { load, cpuMsPerRequest: per(after.node - before.node), otherCpuMsPerRequest: per(after.other - before.other) };
}
