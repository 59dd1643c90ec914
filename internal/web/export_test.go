package web

// ListRenders is the number of times GET / was made, for the tests.
func (h *Hub) ListRenders() int {
	h.listc.mu.Lock()
	defer h.listc.mu.Unlock()
	return h.listc.renders
}

// Streams is the number of event streams open.
func (h *Hub) Streams() int64 { return h.streams.Load() }
