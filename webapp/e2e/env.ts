// Where start-server.sh serves the app for the journeys.
export const BASE_URL = 'http://127.0.0.1:18181'
