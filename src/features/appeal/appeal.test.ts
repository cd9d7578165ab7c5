import { describe, expect, it } from 'vitest';
import { toApplyForm } from '../../api/wire.ts';
import { memoryStorage } from '../../../tests/helpers/memory-storage.ts';
import { DRAFT_STORAGE_KEY, EMPTY_DRAFT, clearDraft, fieldProblem, invalidFields, loadDraft, saveDraft, type AppealField } from './appeal.ts';

describe('appeal payload mapping', () => {
  it('puts the subject in Description and the message in Title (the swapped wire labels), with the captcha token', () => {
    const form = toApplyForm({
      fullName: 'Karimov Bahodir',
      phone: '+998901234567',
      email: 'b@example.uz',
      subject: 'Subject line',
      message: 'Message text',
      captchaToken: 'tok',
    });
    expect(Object.fromEntries(form)).toEqual({
      FIO: 'Karimov Bahodir',
      Tel: '+998901234567',
      Email: 'b@example.uz',
      Title: 'Message text',
      Description: 'Subject line',
      'h-captcha-response': 'tok',
    });
  });
});

describe('appeal validation and draft', () => {
  const valid = { fullName: 'Karimov Bahodir', phone: '+998901234567', email: 'bahodir@example.uz', subject: 'Yo‘l ta’miri haqida', message: 'Ko‘chamizdagi yo‘l buzilgan.' };

  const problems = (draft: typeof valid, checked: Set<AppealField> | 'all') => Object.fromEntries(invalidFields(draft, checked));

  it('flags only fields the citizen has left (or all, on sending) that are under 10 characters', () => {
    const draft = { ...valid, fullName: 'Ali', message: 'short' };
    expect(problems(draft, new Set(['fullName']))).toEqual({ fullName: 'short' });
    expect(problems(draft, 'all')).toEqual({ fullName: 'short', message: 'short' });
    expect(problems(valid, 'all')).toEqual({});
  });

  it('counts trimmed characters: ten spaces are not ten characters', () => {
    expect(problems({ ...valid, subject: ' '.repeat(12) }, 'all')).toEqual({ subject: 'short' });
  });

  it('takes a phone number as people write it, and refuses letters; an e-mail must be an address', () => {
    for (const phone of ['+998 90 123-45-67', '+998901234567', '(90) 123 45 67', '998 90 1234567']) expect(fieldProblem('phone', phone), phone).toBeNull();
    for (const phone of ['+998 90 ABC-45-67', 'mening raqamim', '+998 90 12', '12345678901234567']) expect(fieldProblem('phone', phone), phone).toBe('phone');
    for (const email of ['bahodir@example.uz', 'b.karimov@mail.example.com']) expect(fieldProblem('email', email), email).toBeNull();
    for (const email of ['not an email address', 'bahodir@example', 'bahodir.example.uz', '@example.uz']) expect(fieldProblem('email', email), email).toBe('email');
    // The length rule still holds for the others (10 characters at least, or the server answers 400).
    expect(fieldProblem('email', 'a@b.uz')).toBe('short');
  });

  it('keeps a draft until it is cleared, and ignores a damaged one', () => {
    const store = memoryStorage();
    saveDraft(store, { ...EMPTY_DRAFT, message: 'half-written text' });
    expect(loadDraft(store)).toEqual({ ...EMPTY_DRAFT, message: 'half-written text' });
    clearDraft(store);
    expect(loadDraft(store)).toBeNull();
    store.setItem(DRAFT_STORAGE_KEY, '{"message": 42, "fullName": "Ali"');
    expect(loadDraft(store)).toBeNull();
    store.setItem(DRAFT_STORAGE_KEY, `{"message": 42, "fullName": "Ali", "savedAt": ${Date.now()}}`);
    expect(loadDraft(store)).toEqual({ ...EMPTY_DRAFT, fullName: 'Ali' });
  });

  it('forgets a draft (name, phone, e-mail) after 24 hours, and one saved without a time', () => {
    const store = memoryStorage();
    const t0 = Date.parse('2026-11-23T09:00:00Z');
    saveDraft(store, { ...valid }, t0);
    expect(loadDraft(store, t0 + 23 * 3600_000)).toEqual(valid);
    expect(loadDraft(store, t0 + 24 * 3600_000 + 1)).toBeNull();
    // Expired means removed, not only hidden.
    expect(store.getItem(DRAFT_STORAGE_KEY)).toBeNull();
    store.setItem(DRAFT_STORAGE_KEY, JSON.stringify(valid));
    expect(loadDraft(store)).toBeNull();
    expect(store.getItem(DRAFT_STORAGE_KEY)).toBeNull();
  });

  it('does not throw when storage is full or disabled', () => {
    const broken = memoryStorage(true);
    expect(() => saveDraft(broken, valid)).not.toThrow();
    expect(loadDraft(broken)).toBeNull();
  });
});
