package config

import (
	"encoding/json"
	"os"
)

// Load reads path over Default. A missing file at the default location means defaults.
//
// Placeholder: the foundation work replaces this with full validation and warnings.
func Load(path string) (Config, []string, error) {
	cfg := Default()
	data, err := os.ReadFile(path)
	if err != nil {
		if os.IsNotExist(err) && path == FileName {
			return cfg, nil, nil
		}
		return cfg, nil, err
	}
	err = json.Unmarshal(data, &cfg)
	return cfg, nil, err
}
