"""The backend's JSON-RPC interface (stdio), shared by the CLI and the language server."""
