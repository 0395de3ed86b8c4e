import { z } from 'zod';
import { bodyEnumList } from '../shared/enum-lists.js';
import { ZPathId, input } from '../shared/schemas.js';
import { ZSearchPage, pageOf } from '../shared/search-page.js';
import { ZContainsText, ZDateTimeRange } from '../shared/master-data-filters.js';

export const USER_ROLES = ['Admin', 'Dispatcher', 'Driver', 'Biller', 'SalesAgent', 'DataEntry', 'Safety'] as const;
export const USER_STATUSES = ['Active', 'Disabled'] as const;

const ZDateTimeOut = z.iso.datetime().meta({ description: 'ISO 8601 date-time, UTC.', example: '2026-11-18T00:00:00.000Z' });

export const ZUser = z
  .object({
    Id: z.string(),
    UserName: z.string(),
    Name: z.string(),
    Email: z.string(),
    Phone: z.string().nullable(),
    Role: z.enum(USER_ROLES),
    Status: z.enum(USER_STATUSES),
    SubsidiaryId: z.string().nullable().meta({ description: 'null: the user belongs to no subsidiary and every client of the tenant sees them.' }),
    CreatedAt: ZDateTimeOut,
    UpdatedAt: ZDateTimeOut,
  })
  .meta({ id: 'User' });
export type TUser = z.infer<typeof ZUser>;

export const ZUserList = z.array(ZUser).meta({ id: 'UserList' });
export const ZUserPage = pageOf(ZUser).meta({ id: 'UserPage' });

export const ZUserIdInput = input({ id: ZPathId });

export const ZListUsersInput = input({});

export const ZSearchUsersInput = input({
  ...ZSearchPage,
  Keyword: ZContainsText.nullish().meta({ description: 'Matches Name, UserName or Email anywhere, case-insensitively.' }),
  Roles: bodyEnumList(USER_ROLES).nullish(),
  Statuses: bodyEnumList(USER_STATUSES).nullish(),
  UpdatedAtRange: ZDateTimeRange('UpdatedAt'),
});
export type TSearchUsersInput = z.output<typeof ZSearchUsersInput>;
