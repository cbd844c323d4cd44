// The AudioWorklet that hands the microphone's samples to the page (micRecorder.ts). It is
// shipped as a file of its own: the page's Content-Security-Policy refuses blob: worklets.

declare class AudioWorkletProcessor {
  readonly port: MessagePort;
}
declare function registerProcessor(name: string, processor: new () => AudioWorkletProcessor & { process(inputs: Float32Array[][]): boolean }): void;

/** Samples gathered before they are posted: about 64 ms at 16 kHz, so the page is not woken 125 times a second. */
const BATCH = 1024;

class PcmCapture extends AudioWorkletProcessor {
  private batch = new Float32Array(BATCH);
  private filled = 0;

  constructor() {
    super();
    // The recorder asks for what is left in the batch when it stops.
    this.port.onmessage = () => this.post();
  }

  process(inputs: Float32Array[][]): boolean {
    const samples = inputs[0]?.[0];
    if (!samples) return true;
    for (let index = 0; index < samples.length; index++) {
      this.batch[this.filled++] = samples[index]!;
      if (this.filled === BATCH) this.post();
    }
    return true;
  }

  private post(): void {
    const full = this.batch.slice(0, this.filled);
    this.filled = 0;
    this.port.postMessage(full, [full.buffer]);
  }
}

registerProcessor('tandem-pcm-capture', PcmCapture);
