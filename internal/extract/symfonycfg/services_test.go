package symfonycfg

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestConfiguration_ServicesXML: an XML services file gives each service's
// class, aliases and tags with their event and method; a service without a
// class whose id is a class name is that class.
func TestConfiguration_ServicesXML(t *testing.T) {
	src := `<?xml version="1.0"?>
<container xmlns="http://symfony.com/schema/dic/services">
    <services>
        <service id="app.listener" class="App\Listener\Locale">
            <argument type="service" id="router"/>
            <tag name="kernel.event_listener" event="kernel.request" method="onRequest"/>
        </service>
        <service id="App\Mailer\MailerInterface" alias="app.mailer"/>
        <service id="App\Other"/>
    </services>
</container>`
	got, err := ReadServices("src/Bundle/Resources/config/services.xml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := []Service{
		{ID: "app.listener", Class: `App\Listener\Locale`, Line: 4, Tags: []Tag{{Name: "kernel.event_listener", Event: "kernel.request", Method: "onRequest", Line: 6}}},
		{ID: `App\Mailer\MailerInterface`, Alias: "app.mailer", Line: 8},
		{ID: `App\Other`, Class: `App\Other`, Line: 9},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("services (-want +got):\n%s", diff)
	}
	if _, err := ReadServices("config/services.yaml", []byte("services:\n  a: [\n")); err == nil {
		t.Error("malformed YAML gave no error")
	}
}
