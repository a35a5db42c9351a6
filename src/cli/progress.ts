// Progress of long CLI work on stderr: a cli-progress bar (done/total, rate, ETA) on a TTY,
// otherwise a log line at most every LOG_EVERY_MS, so piped runs and CI logs stay readable.
import { SingleBar } from "cli-progress";

const LOG_EVERY_MS = 5000;

export type ProgressReporter = { update: (done: number, total?: number) => void; stop: () => void };

export function progressReporter(
  label: string,
  unit: string,
  stream: NodeJS.WriteStream = process.stderr,
): ProgressReporter {
  if (stream.isTTY) {
    const bar = new SingleBar({
      stream,
      format: `${label} [{bar}] {value}/{total} ${unit} | {speed}/s | ETA {eta_formatted}`,
      hideCursor: true,
      etaBuffer: 50,
    });
    const startedAt = Date.now();
    let started = false;
    return {
      update(done, total) {
        const speed = Math.round(done / Math.max((Date.now() - startedAt) / 1000, 0.001));
        if (!started) {
          bar.start(total ?? done, done, { speed });
          started = true;
        } else {
          if (total !== undefined) bar.setTotal(total);
          bar.update(done, { speed });
        }
      },
      stop: () => started && bar.stop(),
    };
  }
  const startedAt = Date.now();
  let lastLog = 0;
  let last = { done: 0, total: undefined as number | undefined };
  const log = () => {
    const seconds = Math.max((Date.now() - startedAt) / 1000, 0.001);
    const rate = last.done / seconds;
    const eta =
      last.total !== undefined && rate > 0
        ? ` eta=${Math.ceil((last.total - last.done) / rate)}s`
        : "";
    stream.write(
      `svc: ${label}: ${last.done}${last.total !== undefined ? `/${last.total}` : ""} ${unit} rate=${rate.toFixed(1)}/s${eta}\n`,
    );
  };
  return {
    update(done, total) {
      last = { done, total };
      if (Date.now() - lastLog >= LOG_EVERY_MS) {
        lastLog = Date.now();
        log();
      }
    },
    stop: log,
  };
}
