/* TSD destructors run for a cancelled thread: musl and glibc alike. */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>
static pthread_key_t key;
static volatile int ran;
static void dtor(void *p) { (void)p; ran = 1; }
static void *body(void *p) { (void)p; pthread_setspecific(key, &key); for (;;) pause(); return 0; }
int main(void)
{
	pthread_t th;
	pthread_key_create(&key, dtor);
	pthread_create(&th, 0, body, 0);
	usleep(100000);
	pthread_cancel(th);
	pthread_join(th, 0);
	printf("TSD destructor after cancel ran: %d\n", ran);
	return 0;
}
