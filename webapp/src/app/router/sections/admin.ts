// The admin section's lazy bundle (DESIGN §6): the admin area (B §2).
import NotAvailable from '../../../platform/NotAvailable'

export const screens = { NotAvailable }
