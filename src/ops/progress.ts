/**
 * Progress for long admin operations. On a terminal: one line redrawn in place on stderr (so
 * stdout stays clean for pipes such as `export > file.ndjson`), at most ten times a second.
 * Elsewhere (cron, systemd, tests): silent until `done`, which prints one summary line.
 */
export interface Progress {
  update(done: number, total?: number): void;
  done(summary: string): void;
}

export function createProgress(label: string, stream: NodeJS.WriteStream = process.stderr): Progress {
  const tty = Boolean(stream.isTTY);
  let last = 0;
  let drawn = false;
  return {
    update(done, total) {
      if (!tty) return;
      const now = Date.now();
      if (now - last < 100 && (total === undefined || done < total)) return;
      last = now;
      const pct = total ? ` ${Math.floor((done / Math.max(total, 1)) * 100)}%` : "";
      stream.write(
        `\r\x1b[2K${label}: ${done.toLocaleString("en")}${total !== undefined ? ` / ${total.toLocaleString("en")}` : ""}${pct}`,
      );
      drawn = true;
    },
    done(summary) {
      if (tty && drawn) stream.write("\r\x1b[2K");
      stream.write(`${label}: ${summary}\n`);
    },
  };
}

/** For library callers that want no output. */
export const noProgress: Progress = { update() {}, done() {} };
