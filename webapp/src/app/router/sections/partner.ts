// The partner section's lazy bundle (DESIGN §6): ambassador and certified screens (B §2).
import NotAvailable from '../../../platform/NotAvailable'

export const screens = { NotAvailable }
