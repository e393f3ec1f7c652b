import {
  CompanyAmbassador,
  CompanyCertified,
  CompanyStandard,
  MsgCertificationOff,
  MsgCertificationOn,
  MsgUserUpdated,
  MsgUserUpgraded,
  StatusDisabled,
  type User,
} from '../../../platform/api-types/identity'

/** B §9: the admin lists offer 50, 75, 100 and All (0); companies default to 50. */
export const ADMIN_PAGE_SIZES = [50, 75, 100, 0]

// B §8, word for word.
export const MSG_UPGRADED = MsgUserUpgraded
export const MSG_CERT_ON = MsgCertificationOn
export const MSG_CERT_OFF = MsgCertificationOff
export const CONFIRM_CERT_ON = 'Are you sure you want to activate certification?'
export const CONFIRM_CERT_OFF = 'Are you sure you want to remove certification?'
export const MSG_USER_UPDATED = MsgUserUpdated
// B §5.
export const MSG_SELECT_COMPANY = 'You first must select a Company'

export type UpgradeType = typeof CompanyCertified | typeof CompanyAmbassador

/** B §8: 'Are you sure you want Upgrade this user to {type}?' */
export const confirmUpgrade = (type: UpgradeType) => `Are you sure you want Upgrade this user to ${type}?`

/** B §6: only a standard company (or one without a type) may be upgraded. */
export function canUpgrade(user: User): boolean {
  const type = user.company?.type ?? ''
  return type === '' || type === CompanyStandard
}

export const isDisabled = (user: User) => user.local.status === StatusDisabled

export const COMPANY_TYPES = [CompanyStandard, CompanyAmbassador, CompanyCertified] as const
