import { describe, expect, it } from 'vitest';
import { memoryStorage } from '../../../tests/helpers/memory-storage.ts';
import { $votes, loadVotes, parseVotes, recordVote, voteFailureKey, VOTES_STORAGE_KEY } from './votes.ts';

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

  it('blames the connection only when no answer came; an error the server answered says so', () => {
    expect(voteFailureKey(undefined)).toBe('survey.failed');
    for (const status of [400, 404, 429, 500, 502, 503]) expect(voteFailureKey(status)).toBe('survey.serverError');
  });
});
