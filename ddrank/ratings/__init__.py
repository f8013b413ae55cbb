"""Player ratings built on table results: Lehman's OKbridge ratings."""
