import { decodeWindows1252, sniffCharset, type HtmlScanner } from '../../src/discovery';

/** Bytes of a document read before deciding its encoding (HTML's prescan window). */
const SNIFF_BYTES = 1024;

/**
 * A document body on its way into the scanner: its (content-decoded) bytes are held until the
 * character encoding is known (BOM, `Content-Type` charset, `<meta>` prescan of the first 1024
 * bytes), then the scanner is created for that encoding — its URLs' queries depend on it — and
 * fed UTF-8 or text from then on.
 *
 * Invariant: every byte written reaches the scanner exactly once, in order, and `end()` ends it.
 */
export class DocumentText {
  private head: Buffer[] = [];
  private headBytes = 0;
  private scanner: HtmlScanner | undefined;
  /** Set once the encoding is known: `undefined` for UTF-8 (written as bytes) and windows-1252 (by hand). */
  private text: InstanceType<typeof TextDecoder> | undefined;
  private charset: string | undefined;

  constructor(
    private readonly contentType: string | undefined,
    /** Creates the scanner once the document's encoding (a WHATWG name) is known. */
    private readonly createScanner: (encoding: string) => HtmlScanner,
  ) {}

  write(chunk: Buffer): void {
    if (this.charset === undefined) {
      this.head.push(chunk);
      this.headBytes += chunk.length;
      if (this.headBytes >= SNIFF_BYTES) this.start();
      return;
    }
    this.pass(chunk);
  }

  end(): void {
    if (this.charset === undefined) this.start();
    if (this.text) this.scanner?.write(this.text.decode());
    this.scanner?.end();
  }

  private start(): void {
    const head = Buffer.concat(this.head);
    this.head = [];
    const charset = sniffCharset(head, this.contentType);
    this.charset = charset;
    // windows-1252 by hand: Node 20's TextDecoder reads it as ISO-8859-1 (see windows-1252.ts).
    if (charset !== 'utf-8' && charset !== 'windows-1252') this.text = new TextDecoder(charset);
    this.scanner = this.createScanner(charset);
    this.pass(head);
  }

  private pass(chunk: Buffer): void {
    if (this.charset === 'utf-8') this.scanner?.write(chunk);
    else if (this.text === undefined) this.scanner?.write(decodeWindows1252(chunk));
    else this.scanner?.write(this.text.decode(chunk, { stream: true }));
  }
}
