/** Text is held at most this long in characters before it is written. */
const MaxHeld = 64 * 1024;

/**
 * Writes text in batches: what is written in one turn of the event loop (the event lines a wave of objects
 * prints) goes out in one write at the end of that turn, or sooner once 64 KB gather, instead of one system
 * call per line. `flush()` writes what is held now: before writing to another stream that shares the
 * output (stderr after stdout keeps its order), and when the process exits.
 */
export class BatchedWriter {
  private held: string[] = [];
  private size = 0;
  private scheduled = false;

  constructor(private readonly write: (text: string) => unknown) {}

  add(text: string): void {
    this.held.push(text);
    this.size += text.length;
    if (this.size >= MaxHeld) this.flush();
    else if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => {
        this.scheduled = false;
        this.flush();
      });
    }
  }

  flush(): void {
    if (this.held.length === 0) return;
    const text = this.held.length === 1 ? this.held[0] : this.held.join('');
    this.held = [];
    this.size = 0;
    this.write(text);
  }
}
