"""The platform-neutral game service: requests in, replies out; rules of play and clocks."""
