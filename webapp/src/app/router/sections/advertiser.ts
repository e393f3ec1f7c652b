// The advertiser section's lazy bundle (DESIGN §6): the user screens.
import Faq from '../../../features/identity/routes/Faq'
import Profile from '../../../features/identity/routes/Profile'
import Settings from '../../settings/Settings'
import ThankYou from '../../../features/identity/routes/ThankYou'
import NotAvailable from '../../../platform/NotAvailable'

export const screens = { ThankYou, Faq, Profile, Settings, NotAvailable }
