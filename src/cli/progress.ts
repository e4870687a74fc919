/**
 * Progress output for long commands: a redrawn bar on a terminal, plain lines (every 10 %, and
 * on phase changes) when output goes to a file or CI log.
 */
export interface ProgressView {
  update(percent: number, label: string): void;
  done(): void;
}

export function progressView(stream: NodeJS.WriteStream = process.stderr): ProgressView {
  if (stream.isTTY) {
    let lastLine = '';
    return {
      update(percent, label) {
        const width = 30;
        const filled = Math.round((Math.min(100, Math.max(0, percent)) / 100) * width);
        const line = `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${String(percent).padStart(3)}% ${label}`;
        if (line === lastLine) return;
        lastLine = line;
        stream.write(`\r\x1b[2K${line}`);
      },
      done() {
        if (lastLine) stream.write('\n');
      },
    };
  }
  let lastStep = -1;
  let lastPhase = '';
  return {
    update(percent, label) {
      const step = Math.floor(percent / 10);
      const phase = label.split(' ')[0] ?? '';
      if (step === lastStep && phase === lastPhase) return;
      lastStep = step;
      lastPhase = phase;
      stream.write(`${String(percent).padStart(3)}% ${label}\n`);
    },
    done() {},
  };
}
