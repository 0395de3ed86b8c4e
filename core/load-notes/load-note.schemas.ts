import { z } from 'zod';
import { ZText } from '../shared/money-input.js';
import { ZPathId, input } from '../shared/schemas.js';
import { ZQueryPage, pageOf } from '../shared/search-page.js';

export const NOTE_ACCESS = ['Internal', 'Public'] as const;

const ZLoadNumberPath = ZPathId.meta({ description: 'The load number.', example: 'L-10042' });
const ZNoteIdPath = ZPathId.meta({ description: 'The note id.', example: 'note_5d1c0a52-8a5e-4f0e-9d8e-0f1b2c3d4e5f' });

export const ZLoadNote = z
  .object({
    Id: z.string().meta({ example: 'note_5d1c0a52-8a5e-4f0e-9d8e-0f1b2c3d4e5f' }),
    Text: z.string(),
    Access: z.enum(NOTE_ACCESS).meta({ description: 'Public notes also appear on the customer tracking page; Internal ones never leave the API.' }),
    CreatedAt: z.iso.datetime(),
    CreatedBy: z.string().meta({ description: 'The id of the API client that wrote the note.' }),
  })
  .meta({ id: 'LoadNote' });
export type TLoadNote = z.infer<typeof ZLoadNote>;
export const ZLoadNotePage = pageOf(ZLoadNote).meta({ id: 'LoadNotePage' });

export const ZCreateLoadNoteInput = input({
  loadNumber: ZLoadNumberPath,
  Text: ZText(2000).meta({ description: '1 to 2,000 characters, not only white space (leading and trailing white space is trimmed).' }),
  Access: z.enum(NOTE_ACCESS),
});
export type TCreateLoadNoteInput = z.output<typeof ZCreateLoadNoteInput>;

export const ZFindLoadNotesInput = input({ loadNumber: ZLoadNumberPath, ...ZQueryPage });
export const ZGetLoadNoteInput = input({ loadNumber: ZLoadNumberPath, noteId: ZNoteIdPath });
