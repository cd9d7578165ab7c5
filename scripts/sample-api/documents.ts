/**
 * The documents an editor links to from the sample's texts (`/media/hujjatlar/<name>`), as a real media
 * server keeps decisions and tables: a short PDF with the decision's words, and a spreadsheet. Any other
 * name answers 404, as a document deleted from the media server does (the seed links one such).
 */
import { createHash } from 'node:crypto';
import { ORIGINAL_MODIFIED, type Picture } from './media.ts';

const TYPES: Record<string, string> = {
  pdf: 'application/pdf',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

/** A one-page PDF that shows `line`: every viewer opens it. */
function pdf(line: string): Buffer {
  const stream = `BT /F1 18 Tf 60 760 Td (${line.replace(/[()\\]/g, '')}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(body.length);
    body += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

const DOCUMENTS: Record<string, () => Buffer> = {
  // Some 40 KB, as a scanned one-page decision is at the least: the size the page shows beside the link.
  'qaror-12.pdf': () => Buffer.concat([pdf('Qorakul tumani hokimining qarori No 12: suv navbati tartibi'), Buffer.from(`%${'0'.repeat(40_000)}\n`)]),
  'suv-navbati-jadvali.xlsx': () => Buffer.from('PK\u0003\u0004 sample spreadsheet: northern blocks Mon-Wed, southern blocks Thu-Sat, households Sun'),
};

/** The document at `/media/hujjatlar/<name>`, or null. */
export function sampleDocument(name: string): Picture | null {
  const make = DOCUMENTS[name];
  if (!make) return null;
  const bytes = make();
  const extension = name.split('.').pop()!;
  return {
    bytes,
    contentType: TYPES[extension] ?? 'application/octet-stream',
    etag: `"${createHash('sha256').update(bytes).digest('hex').slice(0, 32)}"`,
    modified: ORIGINAL_MODIFIED,
  };
}
