/* Tests of the booksim .icnt reader (sim/mem/icnt_file.c): GPGPU-Sim's
 * shipped files give the crossbar parameters worked out by hand below, and
 * networks the crossbar cannot be are refused with file, line and key. */
#include <string.h>

#include "check.h"
#include "common/text.h"
#include "sim/mem/icnt_file.h"

/* config_fermi_islip.icnt: routing_delay 0, vc_alloc_delay 1,
 * sw_alloc_delay 1, st_final_delay unset (booksim: 1): head pipeline
 * 1 (channel in) + 0 + 1 + 1 + 1 + 1 (channel out) = 5 icnt cycles;
 * input_buffer_size unset (GPGPU-Sim: 9) + vc_buf_size 64 = 73 flits;
 * ejection_buffer_size unset: vc_buf_size = 64 flits; flit_size 40; islip.
 * The same figures data/fidelity/gtx480.icnt.config gives by hand. */
static void test_fermi(void)
{
    sim_icnt_file f;
    trapeze_error err;
    CHECK_OK(sim_icnt_file_read("tests/configs/accelsim/SM2_GTX480/config_fermi_islip.icnt",
                                15 + 12, &f, &err));
    CHECK(f.latency == 5);
    CHECK(f.in_buffer == 73);
    CHECK(f.out_buffer == 64);
    CHECK(f.flit_size == 40);
    CHECK(f.islip == 1);
    CHECK(f.subnets == 2);
    /* 27 ports (k) for 28 nodes: refused, naming the line of k */
    CHECK(sim_icnt_file_read("tests/configs/accelsim/SM2_GTX480/config_fermi_islip.icnt",
                             28, &f, &err) == TRAPEZE_EPARSE);
    CHECK(strstr(err.message, "config_fermi_islip.icnt:10: k: 27 ports, but the GPU has 28") !=
          NULL);
}

/* config_volta_islip.icnt: input_buffer_size 256 + vc_buf_size 256 = 512;
 * ejection_buffer_size 256. */
static void test_volta(void)
{
    sim_icnt_file f;
    trapeze_error err;
    CHECK_OK(sim_icnt_file_read("tests/configs/accelsim/SM7_QV100/config_volta_islip.icnt",
                                80 + 64, &f, &err));
    CHECK(f.in_buffer == 512 && f.out_buffer == 256 && f.latency == 5);
}

static void test_refusals(void)
{
    sim_icnt_file f;
    trapeze_error err;
    const char *base = "topology = fly;\nk = 4;\nn = 1;\nnum_vcs = 1;\n";
    char text[512];
    snprintf(text, sizeof text, "%s%s", base, "// a comment; with a semicolon\nnum_vcs = 2;\n");
    CHECK(sim_icnt_file_parse(text, "a.icnt", 4, &f, &err) == TRAPEZE_EPARSE);
    CHECK(strstr(err.message, "a.icnt:6: num_vcs: 2 virtual channels are not modelled") != NULL);
    CHECK(sim_icnt_file_parse("topology = mesh;\nk = 4;\nn = 1;\n", "b.icnt", 4, &f, &err) ==
          TRAPEZE_EPARSE);
    CHECK(strstr(err.message, "b.icnt:1: topology: mesh is not modelled") != NULL);
    /* booksim's default num_vcs is 16 */
    CHECK(sim_icnt_file_parse("topology = fly;\nk = 4;\nn = 1;\n", "c.icnt", 4, &f, &err) ==
          TRAPEZE_EPARSE);
    CHECK(strstr(err.message, "c.icnt: num_vcs: 16 virtual channels") != NULL);
    snprintf(text, sizeof text, "%s%s", base, "vc_buf_size = 8\n");
    CHECK(sim_icnt_file_parse(text, "d.icnt", 4, &f, &err) == TRAPEZE_EPARSE);
    CHECK(strstr(err.message, "d.icnt:5:") != NULL && strstr(err.message, "missing ';'"));
    snprintf(text, sizeof text, "%s%s", base, "vc_buf_size = lots;\n");
    CHECK(sim_icnt_file_parse(text, "e.icnt", 4, &f, &err) == TRAPEZE_EPARSE);
    CHECK(strstr(err.message, "e.icnt:5: vc_buf_size") != NULL);
    snprintf(text, sizeof text, "%s%s", base, "sw_allocator = separable_input_first;\n");
    CHECK(sim_icnt_file_parse(text, "f.icnt", 4, &f, &err) == TRAPEZE_EPARSE);
    CHECK(strstr(err.message, "f.icnt:5: sw_allocator") != NULL);
    /* round robin; booksim's default delays 1 each: 1 + 1 + 1 + 1 + 1 + 1 = 6;
     * vc_buf_size 8 by default: 9 + 8 in, 8 out */
    snprintf(text, sizeof text, "%s%s", base, "sw_allocator = round_robin;\n");
    CHECK_OK(sim_icnt_file_parse(text, "g.icnt", 4, &f, &err));
    CHECK(f.islip == 0 && f.latency == 6 && f.in_buffer == 17 && f.out_buffer == 8 &&
          f.flit_size == 0);
    CHECK(sim_icnt_file_read("no/such.icnt", 4, &f, &err) == TRAPEZE_EIO);
}

int main(void)
{
    test_fermi();
    test_volta();
    test_refusals();
    return check_report("test_icnt_file");
}
