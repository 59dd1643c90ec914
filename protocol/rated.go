package protocol

// AuthWord starts the line a bot sends first on a rated listener
// (kaisen serve --ladder): "auth NAME TOKEN" (docs/ladder.md). The server,
// the ladder's parser and the client all spell it from here.
const AuthWord = "auth"

// RefusedPrefix starts the one line a server sends before closing a
// connection it refuses: "refused: REASON" (a limit, or on a rated listener
// a failed authentication: "refused: auth_failed: ..."; docs/server.md).
const RefusedPrefix = "refused: "
