/**
 * aws-cdk-lib writes "Bundling asset <construct path>..." to stderr for each asset it bundles,
 * with no setting to turn it off: with one function per route row, over a hundred lines that
 * bury the warnings a synth ends with. While the app is built they are counted instead of
 * printed, and bin/app.ts says how many in one line (VERBOSE_SYNTH=1 prints them as they come).
 * Anything else written to the stream, a bundling error included, passes through (behaviour CONFIG-13).
 */
const assetLine = /^Bundling asset \S+\.\.\.\n$/;

/** Holds back the asset lines written to `stream` until the returned function is called; it returns their count. */
export function holdBackAssetLines(stream: Pick<NodeJS.WriteStream, 'write'>): () => number {
  const write = stream.write;
  let held = 0;
  stream.write = ((chunk: unknown, ...rest: unknown[]) => {
    if (typeof chunk === 'string' && assetLine.test(chunk)) {
      held += 1;
      return true;
    }
    return Reflect.apply(write, stream, [chunk, ...rest]) as boolean;
  }) as typeof stream.write;
  return () => {
    stream.write = write;
    return held;
  };
}
