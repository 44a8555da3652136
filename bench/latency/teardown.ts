/**
 * What the run leaves behind and how it goes: the RTMP encoder (the bench's own ffmpeg), Chromium,
 * the server and the temp folder are closed once, however the run ends (done, failed, a signal, or
 * the hard cap, which exits with code 3).
 */

import type { ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import type { ServerHandle } from './server.ts';
import { stopAll } from './stop.ts';

export class Teardown {
  serverProc: ChildProcess | undefined;
  server: ServerHandle | undefined;
  browser: Browser | undefined;
  /** The RTMP broadcaster's ffmpeg while it runs (encoder.ts adds it and takes it out when it exits). */
  readonly encoders = new Set<ChildProcess>();
  private cleaning: Promise<void> | undefined;
  private hardCap: NodeJS.Timeout | undefined;
  /**
   * The last word, synchronous: Playwright's own SIGINT handler closes Chromium and exits (130)
   * before cleanup() has stopped the server or removed the temp folder (the 207 MB clip).
   */
  private readonly killOnExit = () => {
    this.killEncoders();
    this.serverProc?.kill('SIGKILL');
    try {
      rmSync(this.temp, { recursive: true, force: true, maxRetries: 3 });
    } catch {}
  };
  private readonly onSignal = (signal: NodeJS.Signals) => {
    stopAll.abort(new Error(`${signal} received`));
    void this.cleanup().finally(() => process.exit(130));
  };

  constructor(readonly temp: string) {}

  private killEncoders(): void {
    for (const encoder of this.encoders) encoder.kill('SIGKILL');
  }

  /** Kills the encoder, closes Chromium, stops the server and removes the temp folder; once, however often called. */
  cleanup(): Promise<void> {
    this.cleaning ??= (async () => {
      this.killEncoders();
      await this.browser?.close().catch(() => {});
      if (this.server) await this.server.stop();
      else this.serverProc?.kill('SIGKILL');
      rmSync(this.temp, { recursive: true, force: true });
    })();
    return this.cleaning;
  }

  /** Whatever happens: no server or encoder left behind (Playwright ends its own Chromium on exit); the hard cap. */
  arm(maxSeconds: number): void {
    process.once('exit', this.killOnExit);
    process.once('SIGINT', this.onSignal);
    process.once('SIGTERM', this.onSignal);
    this.hardCap = setTimeout(() => {
      console.error(`!! latency: the hard cap of ${maxSeconds} s is reached; stopping`);
      stopAll.abort(new Error(`hard cap of ${maxSeconds} s reached`));
      void this.cleanup();
      setTimeout(() => {
        this.killEncoders();
        this.serverProc?.kill('SIGKILL');
        rmSync(this.temp, { recursive: true, force: true });
        process.exit(3);
      }, 20_000).unref();
    }, maxSeconds * 1000);
    this.hardCap.unref();
  }

  /** The run is over: clean up and take the handlers back. */
  async disarm(): Promise<void> {
    clearTimeout(this.hardCap);
    await this.cleanup();
    process.removeListener('exit', this.killOnExit);
    process.removeListener('SIGINT', this.onSignal);
    process.removeListener('SIGTERM', this.onSignal);
  }
}
