//! Game-playing agents over the cowrie game API.
