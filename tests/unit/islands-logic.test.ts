import { describe, expect, it } from 'vitest';
import { toApplyForm } from '../../src/api/wire.ts';
import { $votes, loadVotes, parseVotes, recordVote, VOTES_STORAGE_KEY } from '../../src/islands/votes.ts';
import {
  A11Y_STORAGE_KEY,
  ALL_BODY_CLASSES,
  bodyClasses,
  parseSettings,
  prePaintScript,
} from '../../src/lib/accessibility.ts';
import { DRAFT_STORAGE_KEY, EMPTY_DRAFT, clearDraft, invalidFields, loadDraft, saveDraft } from '../../src/lib/appeal.ts';

/** A Storage stand-in that can also be made to fail, as a full or disabled storage does. */
function memoryStorage(failing = false) {
  const data = new Map<string, string>();
  return {
    data,
    getItem: (k: string) => (failing ? (() => { throw new Error('denied'); })() : (data.get(k) ?? null)),
    setItem: (k: string, v: string) => {
      if (failing) throw new Error('quota');
      data.set(k, v);
    },
    removeItem: (k: string) => void data.delete(k),
  };
}

describe('appeal payload mapping', () => {
  it('puts the subject in Description and the message in Title (§3), with the captcha token', () => {
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

  it('flags only fields that were touched and are under 10 characters', () => {
    const draft = { ...valid, fullName: 'Ali', message: 'short' };
    expect(invalidFields(draft, new Set(['fullName']))).toEqual(['fullName']);
    expect(invalidFields(draft, 'all')).toEqual(['fullName', 'message']);
    expect(invalidFields(valid, 'all')).toEqual([]);
  });

  it('counts trimmed characters: ten spaces are not ten characters', () => {
    expect(invalidFields({ ...valid, subject: ' '.repeat(12) }, 'all')).toEqual(['subject']);
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

describe('survey votes store', () => {
  it('reads only boolean votes from storage', () => {
    expect(parseVotes('{"1": true, "2": false, "3": "yes"}')).toEqual({ '1': true, '2': false });
    expect(parseVotes('[true]')).toEqual({});
    expect(parseVotes('not json')).toEqual({});
    expect(parseVotes(null)).toEqual({});
  });

  it('records a vote in the store and in storage', () => {
    const store = memoryStorage();
    loadVotes(store);
    expect($votes.get()).toEqual({});
    recordVote(store, 7, false);
    expect($votes.get()).toEqual({ '7': false });
    expect(JSON.parse(store.data.get(VOTES_STORAGE_KEY)!)).toEqual({ '7': false });
    loadVotes(store);
    expect($votes.get()['7']).toBe(false);
  });
});

describe('special opportunities settings', () => {
  it('maps settings to body classes', () => {
    expect(bodyClasses({ mode: 'normal', zoom: 0 })).toEqual([]);
    expect(bodyClasses({ mode: 'grayscale', zoom: 2 })).toEqual(['mode-grayscale', 'zoom-2']);
    expect(ALL_BODY_CLASSES).toEqual(['mode-grayscale', 'mode-contrast', 'zoom-1', 'zoom-2', 'zoom-3']);
  });

  it('reads stored settings defensively', () => {
    expect(parseSettings('{"mode":"contrast","zoom":3}')).toEqual({ mode: 'contrast', zoom: 3 });
    expect(parseSettings('{"mode":"neon","zoom":9}')).toEqual({ mode: 'normal', zoom: 0 });
    expect(parseSettings('oops')).toEqual({ mode: 'normal', zoom: 0 });
  });

  it('the pre-paint script applies the same classes as bodyClasses', () => {
    for (const stored of ['{"mode":"grayscale","zoom":1}', '{"mode":"contrast","zoom":0}', '{"mode":"neon","zoom":7}', 'oops', null]) {
      const classes = new Set<string>();
      const localStorage = { getItem: (k: string) => (k === A11Y_STORAGE_KEY ? stored : null) };
      const document = { body: { classList: { add: (c: string) => void classes.add(c) } } };
      new Function('localStorage', 'document', prePaintScript())(localStorage, document);
      expect([...classes]).toEqual(bodyClasses(parseSettings(stored)));
    }
  });
});
