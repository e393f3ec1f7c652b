// The public section's lazy bundle (DESIGN §6): every screen a visitor sees before signing in,
// but the map's (its own bundle); their frame, PublicLayout, is a bundle of its own.
import Access from '../../../features/identity/routes/Access'
import ForgotPassword from '../../../features/identity/routes/ForgotPassword'
import Login from '../../../features/identity/routes/Login'
import Register from '../../../features/identity/routes/Register'
import ResetPassword from '../../../features/identity/routes/ResetPassword'
import Cost from '../../../features/public/pages/Cost'
import HowItWorks from '../../../features/public/pages/HowItWorks'
import Landing from '../../../features/public/pages/Landing'
import MediaOwners from '../../../features/public/pages/MediaOwners'
import Tos from '../../../features/public/pages/Tos'

export const screens = { Landing, Tos, Cost, MediaOwners, HowItWorks, Register, Login, ForgotPassword, ResetPassword, Access }
