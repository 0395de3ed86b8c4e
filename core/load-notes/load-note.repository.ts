import type { Selectable } from 'kysely';
import type { Db } from '../../db/create-db.js';
import type { LoadNotesTable } from '../../db/tables/load-notes.js';
import { etagOf } from '../shared/etag.js';
import { inScope, type Scope } from '../shared/scope.js';
import type { PageOf, TPageRequest } from '../shared/search-page.js';
import { selectPage, thenById } from '../shared/select-page.js';
import type { TLoadNote } from './load-note.schemas.js';

export type LoadNoteRow = Selectable<LoadNotesTable>;

export interface NotedLoad {
  id: string;
  load_number: string;
  subsidiary_id: string | null;
}

/** The load a notes route names, in the caller's scope; undefined for a missing one and for another tenant's or subsidiary's. */
export async function findNotedLoad(db: Db, scope: Scope, loadNumber: string): Promise<NotedLoad | undefined> {
  return db
    .selectFrom('loads')
    .select(['id', 'load_number', 'subsidiary_id'])
    .where(inScope('loads', scope))
    .where('load_number', '=', loadNumber)
    .executeTakeFirst();
}

export async function insertLoadNote(trx: Db, row: LoadNoteRow): Promise<void> {
  await trx.insertInto('load_notes').values(row).execute();
}

/** Newest first; the id breaks ties (`load_notes_load_idx`). */
export const LOAD_NOTE_ORDER = thenById('load-notes', { column: 'created_at', desc: true, type: 'text' });

/** A load's notes; `loadId` is a load already found in the caller's scope. */
export async function findLoadNotes(db: Db, tenantId: string, loadId: string, page: TPageRequest): Promise<PageOf<TLoadNote>> {
  const query = db.selectFrom('load_notes').where('load_notes.tenant_id', '=', tenantId).where('load_notes.load_id', '=', loadId);
  const found = await selectPage(db, query, { table: 'load_notes', order: LOAD_NOTE_ORDER, page });
  return { ...found, items: found.items.map(toLoadNote) };
}

export async function getLoadNote(db: Db, tenantId: string, loadId: string, noteId: string): Promise<LoadNoteRow | undefined> {
  return db.selectFrom('load_notes').selectAll().where('tenant_id', '=', tenantId).where('load_id', '=', loadId).where('id', '=', noteId).executeTakeFirst();
}

/** Notes are never changed, so the first version's tag is the only one (docs/api-rules.md#notes-and-check-calls). */
export const loadNoteEtag = (row: Pick<LoadNoteRow, 'id'>) => etagOf(row.id, 1);

export function toLoadNote(row: LoadNoteRow): TLoadNote {
  return { Id: row.id, Text: row.text, Access: row.access as TLoadNote['Access'], CreatedAt: row.created_at, CreatedBy: row.created_by };
}
