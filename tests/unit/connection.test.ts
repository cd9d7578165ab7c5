/**
 * A weak or lost connection, the parts that need no browser: the sample API files an appeal once per idempotency key
 * (a resend after a lost answer gets the first answer and stores nothing), the appeal form's key is
 * kept with its draft, sent as a form field, and the not-found page recognises the detail URLs it may
 * find in the API.
 */
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient } from '../../src/api/client.ts';
import { toApplyForm } from '../../src/api/wire.ts';
import { loadDraft, loadDraftKey, newIdempotencyKey, saveDraft } from '../../src/features/appeal/appeal.ts';
import { detailShape } from '../../src/features/just-published/detail-shape.ts';
import type { SampleApi } from '../../scripts/sample-api/server.ts';
import { startTestApi } from '../helpers/sample-api.ts';

let api: SampleApi;
beforeAll(async () => {
  api = await startTestApi('idempotency');
});
afterAll(() => api.close());

const appeal = (message: string, idempotencyKey?: string) => ({
  fullName: 'Karimov Bahodir Aliyevich',
  phone: '+998901234567',
  email: 'bahodir.karimov@example.uz',
  subject: 'Koʻcha chiroqlari haqida',
  message,
  captchaToken: 'test-token',
  idempotencyKey,
});
const rowsWith = (message: string) => api.db.prepare('SELECT id, idempotency_key AS key FROM appeals WHERE title = ?').all(message) as { id: number; key: string | null }[];

describe('sample API: one appeal per idempotency key', () => {
  const client = () => createApiClient({ baseUrl: api.url, retries: 0 });

  it('answers a repeated key with the same answer and stores one appeal', async () => {
    const message = `Bir xil kalit bilan ikki marta yuborilgan murojaat ${Date.now()}`;
    const key = newIdempotencyKey();
    const first = await client().apply(appeal(message, key), 1);
    const again = await client().apply(appeal(message, key), 1);
    expect(first.kind).toBe('sent');
    expect(again).toEqual(first);
    const rows = rowsWith(message);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.key).toBe(key);
    expect(first.kind === 'sent' && first.message).toContain(String(rows[0]!.id));
  });

  it('stores two appeals for two keys, and for requests without a key', async () => {
    const message = `Ikki xil kalit bilan yuborilgan murojaat ${Date.now()}`;
    const a = await client().apply(appeal(message, newIdempotencyKey()), 3);
    const b = await client().apply(appeal(message, newIdempotencyKey()), 3);
    expect(a).not.toEqual(b);
    expect(rowsWith(message)).toHaveLength(2);
    const plain = `Kalitsiz yuborilgan murojaat ${Date.now()}`;
    await client().apply(appeal(plain), 1);
    await client().apply(appeal(plain), 1);
    expect(rowsWith(plain)).toHaveLength(2);
  });

  it('adds the column to a database made before it, keeping the appeals', async () => {
    const old = new DatabaseSync(':memory:');
    old.exec(`CREATE TABLE appeals (id INTEGER PRIMARY KEY AUTOINCREMENT, received_at TEXT NOT NULL, lang INTEGER NOT NULL,
      fio TEXT NOT NULL, tel TEXT NOT NULL, email TEXT NOT NULL, title TEXT NOT NULL, description TEXT NOT NULL);
      INSERT INTO appeals (received_at, lang, fio, tel, email, title, description) VALUES ('2026-01-01', 1, 'a', 'b', 'c', 'old appeal', 'e');`);
    const { migrateKept } = await import('../../scripts/sample-api/db.ts');
    migrateKept(old);
    migrateKept(old); // a second start changes nothing
    expect(old.prepare("SELECT idempotency_key FROM appeals WHERE title = 'old appeal'").all()).toEqual([{ idempotency_key: null }]);
    old.close();
  });
});

describe('the form side of the key', () => {
  it('travels as the IdempotencyKey form field, and not at all when absent', () => {
    expect(toApplyForm(appeal('m', 'abc')).get('IdempotencyKey')).toBe('abc');
    expect(toApplyForm(appeal('m')).has('IdempotencyKey')).toBe(false);
  });

  it('is kept with the draft and read back with it', () => {
    const map = new Map<string, string>();
    const store = { getItem: (k: string) => map.get(k) ?? null, setItem: (k: string, v: string) => void map.set(k, v), removeItem: (k: string) => void map.delete(k) };
    const key = newIdempotencyKey();
    expect(key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    saveDraft(store, { fullName: 'Ali', phone: '', email: '', subject: '', message: '' }, Date.now(), key);
    expect(loadDraftKey(store)).toBe(key);
    expect(loadDraft(store)?.fullName).toBe('Ali');
    // An expired draft takes its key with it.
    expect(loadDraftKey(store, Date.now() + 25 * 3600_000)).toBeNull();
  });
});

describe('detail URLs the not-found page looks up', () => {
  it('matches post and page details in every language, and nothing else', () => {
    expect(detailShape('/news/123')).toEqual({ kind: 'post', id: 123 });
    expect(detailShape('/ru/official-lectures/7/')).toEqual({ kind: 'post', id: 7 });
    expect(detailShape('/uz-cyrl/announcements-and-tenders/9')).toEqual({ kind: 'post', id: 9 });
    expect(detailShape('/en/page/42')).toEqual({ kind: 'page', id: 42 });
    for (const other of ['/news', '/news/abc', '/de/news/1', '/news/1/extra', '/gallery/photo', '/news/page/2', '/ru/news/1x']) {
      expect(detailShape(other), other).toBeNull();
    }
  });
});
