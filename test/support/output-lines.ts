/**
 * The JSON lines a piece of work writes (structured logs and EMF metric documents), read as
 * CloudWatch receives them from a Lambda function: stdout and stderr together, in order
 * (the Powertools logger writes warnings and errors to stderr). The container under test must
 * log above LOG_LEVEL=silent for anything to appear.
 */
export async function outputLines<T>(run: () => Promise<T>): Promise<{ result: T; lines: Record<string, unknown>[] }> {
  const written: string[] = [];
  const streams = [process.stdout, process.stderr] as const;
  const originals = streams.map((stream) => stream.write);
  for (const stream of streams) {
    stream.write = ((chunk: string | Uint8Array) => {
      written.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
      return true;
    }) as typeof stream.write;
  }
  try {
    const result = await run();
    return { result, lines: parseLines(written.join('')) };
  } finally {
    streams.forEach((stream, i) => {
      stream.write = originals[i]!;
    });
  }
}

function parseLines(text: string): Record<string, unknown>[] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}
